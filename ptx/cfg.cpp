#include "cfg.h"

#include <algorithm>
#include <map>
#include <set>

namespace gpucmp::ptx {
namespace {

// The label a bra jumps to, or "" (brx.idx jumps through a table we do not follow).
std::string branch_target(const Instruction& ins) {
  if (ins.opcode != "bra" || ins.operands.empty()) return "";
  const Operand& target = ins.operands.back();
  return target.kind == Operand::Kind::Symbol ? target.name : "";
}

const Instruction* last_instruction(const Function& f, const BasicBlock& b) {
  for (int i = b.end - 1; i >= b.begin; --i)
    if (f.body[i].kind == Statement::Kind::Instruction) return &f.body[i].instruction;
  return nullptr;
}

void add_edge(std::vector<BasicBlock>& blocks, int from, int to) {
  auto& succ = blocks[from].successors;
  if (std::find(succ.begin(), succ.end(), to) != succ.end()) return;
  succ.push_back(to);
  blocks[to].predecessors.push_back(from);
}

void link_blocks(Function& f) {
  std::map<std::string, int> block_of_label;
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    for (const auto& l : f.blocks[b].labels) block_of_label.emplace(l, static_cast<int>(b));
  const int count = static_cast<int>(f.blocks.size());
  for (int b = 0; b < count; ++b) {
    const Instruction* last = last_instruction(f, f.blocks[b]);
    bool falls_through = true;
    if (last && is_terminator(*last)) {
      const auto target = block_of_label.find(branch_target(*last));
      if (target != block_of_label.end()) add_edge(f.blocks, b, target->second);
      falls_through = last->guard.has_value();
    }
    if (falls_through && b + 1 < count) add_edge(f.blocks, b, b + 1);
  }
}

// Blocks in reverse postorder from the entry, by an explicit stack (bodies can
// be long; no recursion).
std::vector<int> reverse_postorder(const Function& f) {
  const std::size_t n = f.blocks.size();
  std::vector<int> order;
  if (n == 0) return order;
  std::vector<char> seen(n, 0);
  std::vector<std::pair<int, std::size_t>> stack{{0, 0}};
  seen[0] = 1;
  while (!stack.empty()) {
    auto& [block, next] = stack.back();
    const auto& succ = f.blocks[block].successors;
    if (next < succ.size()) {
      const int s = succ[next++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.emplace_back(s, 0);
      }
    } else {
      order.push_back(block);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

bool is_terminator(const Instruction& ins) {
  return ins.opcode == "bra" || ins.opcode == "brx" || ins.opcode == "ret" ||
         ins.opcode == "exit" || ins.opcode == "trap";
}

void build_blocks(Function& f) {
  f.blocks.clear();
  bool ended = true;             // the previous block ended in a terminator
  bool has_instruction = false;  // the current block holds an instruction
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    const Statement& s = f.body[i];
    const bool is_label = s.kind == Statement::Kind::Label;
    const bool is_instruction = s.kind == Statement::Kind::Instruction;
    const bool starts = f.blocks.empty() || ((is_label || is_instruction) && ended) ||
                        (is_label && has_instruction);
    if (starts) {
      if (!f.blocks.empty()) f.blocks.back().end = static_cast<int>(i);
      BasicBlock b;
      b.begin = static_cast<int>(i);
      f.blocks.push_back(b);
      ended = false;
      has_instruction = false;
    }
    if (is_label) f.blocks.back().labels.push_back(s.label);
    if (is_instruction) {
      has_instruction = true;
      ended = is_terminator(s.instruction);
    }
  }
  if (!f.blocks.empty()) f.blocks.back().end = static_cast<int>(f.body.size());
  link_blocks(f);
}

std::vector<int> block_of_statements(const Function& f) {
  std::vector<int> out(f.body.size(), -1);
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    for (int i = f.blocks[b].begin; i < f.blocks[b].end; ++i) out[i] = static_cast<int>(b);
  return out;
}

std::vector<int> immediate_dominators(const Function& f) {
  const std::vector<int> order = reverse_postorder(f);
  std::vector<int> rank(f.blocks.size(), -1);
  for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<int>(i);
  std::vector<int> idom(f.blocks.size(), -1);
  if (order.empty()) return idom;
  idom[0] = 0;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (rank[a] > rank[b]) a = idom[a];
      while (rank[b] > rank[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 1; i < order.size(); ++i) {
      const int b = order[i];
      int candidate = -1;
      for (int p : f.blocks[b].predecessors) {
        if (idom[p] == -1) continue;
        candidate = candidate == -1 ? p : intersect(p, candidate);
      }
      if (candidate != idom[b]) {
        idom[b] = candidate;
        changed = true;
      }
    }
  }
  return idom;
}

bool dominates(const std::vector<int>& idom, int a, int b) {
  if (a < 0 || b < 0 || idom[b] == -1 || idom[a] == -1) return false;
  while (true) {
    if (a == b) return true;
    if (idom[b] == b) return false;
    b = idom[b];
  }
}

std::vector<Loop> find_loops(const Function& f) {
  const std::vector<int> idom = immediate_dominators(f);
  std::map<int, std::set<int>> bodies;  // header -> blocks
  for (std::size_t t = 0; t < f.blocks.size(); ++t) {
    if (idom[t] == -1) continue;
    for (int h : f.blocks[t].successors) {
      if (!dominates(idom, h, static_cast<int>(t))) continue;
      std::set<int>& body = bodies[h];
      body.insert(h);
      std::vector<int> work{static_cast<int>(t)};
      while (!work.empty()) {
        const int b = work.back();
        work.pop_back();
        if (!body.insert(b).second) continue;
        for (int p : f.blocks[b].predecessors)
          if (idom[p] != -1) work.push_back(p);
      }
    }
  }
  std::vector<Loop> loops;
  for (const auto& [header, body] : bodies) {
    Loop l;
    l.header = header;
    l.blocks.assign(body.begin(), body.end());
    loops.push_back(std::move(l));
  }
  // Parent: the smallest strictly larger loop holding the header.
  for (auto& l : loops) {
    for (std::size_t m = 0; m < loops.size(); ++m) {
      const Loop& outer = loops[m];
      if (outer.blocks.size() <= l.blocks.size() ||
          !std::binary_search(outer.blocks.begin(), outer.blocks.end(), l.header))
        continue;
      if (l.parent == -1 || outer.blocks.size() < loops[l.parent].blocks.size())
        l.parent = static_cast<int>(m);
    }
  }
  for (auto& l : loops) {
    l.depth = 1;
    for (int p = l.parent; p != -1; p = loops[p].parent) ++l.depth;
  }
  return loops;
}

}  // namespace gpucmp::ptx
