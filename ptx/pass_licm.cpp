// Loop-invariant code motion into existing preheaders, inner loops first.
// Moves are planned on a virtual placement (statement -> block) so that an
// instruction hoisted out of an inner loop can leave the outer one too, and
// the body is rebuilt once at the end.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "cfg.h"
#include "pass_common.h"
#include "passes.h"

namespace gpucmp::ptx {
namespace {

class LoopHoister {
 public:
  explicit LoopHoister(Function& f)
      : f_(f),
        counts_(count_registers(f)),
        body_names_(body_declared_names(f)),
        placement_(block_of_statements(f)),
        moved_into_(f.blocks.size()) {}

  PassReport run() {
    PassReport report{"licm", 0, {}};
    std::vector<Loop> loops = find_loops(f_);
    std::stable_sort(loops.begin(), loops.end(),
                     [](const Loop& a, const Loop& b) { return a.depth > b.depth; });
    for (const Loop& loop : loops) {
      const int preheader = find_preheader(loop);
      if (preheader < 0) {
        report.notes.push_back(f_.name + ": loop at " + header_name(loop) +
                               " has no unique preheader; skipped");
        continue;
      }
      report.changed += hoist(loop, preheader);
    }
    if (report.changed > 0) {
      rebuild_body();
      report.notes.push_back(f_.name + ": " + std::to_string(report.changed) +
                             " loop-invariant instructions hoisted");
    }
    return report;
  }

 private:
  int find_preheader(const Loop& loop) const {
    std::vector<int> outside;
    for (const int p : f_.blocks[loop.header].predecessors)
      if (!std::binary_search(loop.blocks.begin(), loop.blocks.end(), p)) outside.push_back(p);
    return outside.size() == 1 ? outside[0] : -1;
  }

  std::string header_name(const Loop& loop) const {
    const auto& labels = f_.blocks[loop.header].labels;
    return labels.empty() ? "block " + std::to_string(loop.header) : labels[0];
  }

  bool in_loop(const Loop& loop, int statement) const {
    return std::binary_search(loop.blocks.begin(), loop.blocks.end(), placement_[statement]);
  }

  // Registers the loop writes (by the current placement).
  std::set<std::string> defined_in(const Loop& loop) const {
    std::set<std::string> out;
    for (const auto& [reg, sites] : counts_.def_sites)
      for (const int s : sites)
        if (in_loop(loop, s)) out.insert(reg);
    return out;
  }

  // Hoists to a fixed point (an instruction may depend on one hoisted later in body order).
  int hoist(const Loop& loop, int preheader) {
    std::set<std::string> loop_defs = defined_in(loop);
    const int at = insertion_point(f_, preheader);
    const std::vector<std::string> terminator_reads = at < f_.blocks[preheader].end
                                                          ? used_registers(f_.body[at].instruction)
                                                          : std::vector<std::string>{};
    int hoisted = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < f_.body.size(); ++i) {
        const int s = static_cast<int>(i);
        if (f_.body[i].kind != Statement::Kind::Instruction || !in_loop(loop, s)) continue;
        const Instruction& ins = f_.body[i].instruction;
        if (!is_pure(ins, body_names_)) continue;
        const std::string& dest = ins.operands[0].name;
        if (counts_.def_count(dest) != 1) continue;
        if (std::find(terminator_reads.begin(), terminator_reads.end(), dest) !=
            terminator_reads.end())
          continue;
        const auto used = used_registers(ins);
        if (std::any_of(used.begin(), used.end(),
                        [&](const std::string& r) { return loop_defs.count(r) > 0; }))
          continue;
        placement_[s] = preheader;
        moved_into_[preheader].push_back(s);
        loop_defs.erase(dest);
        ++hoisted;
        changed = true;
      }
    }
    return hoisted;
  }

  // Each block's statements that stayed, with those hoisted into it (and not
  // hoisted further) before its terminator.
  void rebuild_body() {
    const std::vector<int> origin = block_of_statements(f_);
    std::vector<Statement> body;
    body.reserve(f_.body.size());
    for (std::size_t b = 0; b < f_.blocks.size(); ++b) {
      const int block = static_cast<int>(b);
      const int at = insertion_point(f_, block);
      for (int i = f_.blocks[b].begin; i <= f_.blocks[b].end; ++i) {
        if (i == at)
          for (const int s : moved_into_[b])
            if (placement_[s] == block) body.push_back(f_.body[s]);
        if (i < f_.blocks[b].end && placement_[i] == origin[i]) body.push_back(f_.body[i]);
      }
    }
    // Statements outside every block (none today) keep their place at the end.
    for (std::size_t i = 0; i < f_.body.size(); ++i)
      if (origin[i] < 0) body.push_back(f_.body[i]);
    f_.body = std::move(body);
    build_blocks(f_);
  }

  Function& f_;
  RegisterCounts counts_;
  std::set<std::string> body_names_;
  std::vector<int> placement_;                // statement -> block it will end up in
  std::vector<std::vector<int>> moved_into_;  // block -> statements hoisted into it, in order
};

}  // namespace

PassReport pass_licm(Function& f) {
  build_blocks(f);
  return LoopHoister(f).run();
}

}  // namespace gpucmp::ptx
