#include "stats.h"

#include <algorithm>
#include <set>

#include "cfg.h"
#include "classify.h"
#include "text_table.h"
#include "unroll.h"

namespace gpucmp::ptx {
namespace {

std::map<std::string, long long> declared_registers(const Function& f) {
  std::map<std::string, long long> out;
  for (const auto& s : f.body) {
    if (s.kind != Statement::Kind::RegDecl || s.decl.types.empty()) continue;
    const std::string type = s.decl.types.back().substr(1);
    for (const auto& d : s.decl.declarators) out[type] += d.range ? *d.range : 1;
  }
  return out;
}

void count(OpcodeCounts& c, const Instruction& ins) {
  c.add(ins.full_opcode(), instruction_class(ins));
}

LoopStats loop_stats(const Function& f, const Loop& loop) {
  LoopStats out;
  const BasicBlock& header = f.blocks[loop.header];
  out.header = header.labels.empty() ? "" : header.labels.front();
  out.depth = loop.depth;
  out.parent = loop.parent;
  for (int b : loop.blocks)
    for (int i = f.blocks[b].begin; i < f.blocks[b].end; ++i)
      if (f.body[i].kind == Statement::Kind::Instruction) count(out.counts, f.body[i].instruction);
  out.instructions = out.counts.total;
  out.unrolled_by = estimate_unroll(f, loop);
  return out;
}

std::string register_summary(const std::map<std::string, long long>& registers) {
  std::string out;
  for (const auto& [type, n] : registers)
    out += (out.empty() ? "" : ", ") + type + " " + std::to_string(n);
  return out.empty() ? "none" : out;
}

// Class names in report order, then any others present.
std::vector<std::string> classes_present(const OpcodeCounts& c) {
  std::vector<std::string> out;
  for (const auto& name : class_names())
    if (c.of_class(name) > 0) out.push_back(name);
  for (const auto& [name, n] : c.by_class)
    if (n > 0 && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  return out;
}

std::string kernel_table(const KernelStats& k) {
  std::string out = "kernel " + k.name + (k.is_entry ? " (.entry)" : " (.func)") + "\n";
  out += "  registers: " + register_summary(k.registers) + "\n";
  TextTable classes({"class", "all", "in loops"});
  for (const auto& name : classes_present(k.all))
    classes.add_row(
        {name, std::to_string(k.all.of_class(name)), std::to_string(k.in_loops.of_class(name))});
  classes.add_row({"total", std::to_string(k.all.total), std::to_string(k.in_loops.total)});
  out += classes.str();
  if (k.loops.empty()) return out + "  loops: none\n";
  TextTable loops({"loop", "header", "depth", "instructions", "unrolled_by"});
  for (std::size_t i = 0; i < k.loops.size(); ++i) {
    const LoopStats& l = k.loops[i];
    loops.add_row({std::to_string(i + 1), l.header.empty() ? "-" : l.header,
                   std::to_string(l.depth), std::to_string(l.instructions),
                   std::to_string(l.unrolled_by)});
  }
  return out + loops.str();
}

}  // namespace

KernelStats compute_stats(const Function& f) {
  KernelStats k;
  k.name = f.name;
  k.is_entry = f.is_entry;
  k.registers = declared_registers(f);
  const std::vector<Loop> loops = find_loops(f);
  std::set<int> loop_blocks;
  for (const auto& l : loops) loop_blocks.insert(l.blocks.begin(), l.blocks.end());
  const std::vector<int> block_of = block_of_statements(f);
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    if (f.body[i].kind != Statement::Kind::Instruction) continue;
    count(k.all, f.body[i].instruction);
    if (loop_blocks.count(block_of[i])) count(k.in_loops, f.body[i].instruction);
  }
  for (const auto& l : loops) k.loops.push_back(loop_stats(f, l));
  return k;
}

Stats compute_stats(const Module& m) {
  Stats s;
  s.filename = m.filename;
  for (const auto& f : m.functions)
    if (f.has_body) s.kernels.push_back(compute_stats(f));
  return s;
}

nlohmann::json to_json(const KernelStats& k) {
  nlohmann::json loops = nlohmann::json::array();
  for (const auto& l : k.loops) {
    nlohmann::json j = to_json(l.counts);
    j["header"] = l.header;
    j["depth"] = l.depth;
    j["parent"] = l.parent;
    j["unrolled_by"] = l.unrolled_by;
    loops.push_back(std::move(j));
  }
  nlohmann::json j = to_json(k.all);
  j["name"] = k.name;
  j["entry"] = k.is_entry;
  j["registers"] = k.registers;
  j["in_loops"] = to_json(k.in_loops);
  j["loops"] = std::move(loops);
  return j;
}

nlohmann::json to_json(const Stats& s) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : s.kernels) kernels.push_back(to_json(k));
  return {{"file", s.filename}, {"kernels", std::move(kernels)}};
}

std::string to_table(const Stats& s) {
  std::string out;
  for (const auto& k : s.kernels) out += (out.empty() ? "" : "\n") + kernel_table(k);
  return out;
}

}  // namespace gpucmp::ptx
