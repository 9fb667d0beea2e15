// pass_unroll(): unroll counted loops (passes.h). Loops are taken one at a time,
// innermost first, re-finding the loops after each change, so that an outer
// loop whose inner loops were all fully unrolled is tried in its turn. The
// matching is in pass_unroll_match.cpp, the copying in pass_unroll_copy.cpp.
#include <set>
#include <string>
#include <vector>

#include "cfg.h"
#include "pass_unroll_copy.h"
#include "pass_unroll_match.h"
#include "pass_unroll_names.h"
#include "passes.h"

namespace gpucmp::ptx {
namespace {

constexpr long long kFullUnrollLimit = 32;

std::string header_name(const Function& f, const Loop& loop) {
  const auto& labels = f.blocks[loop.header].labels;
  return labels.empty() ? "block " + std::to_string(loop.header) : labels[0];
}

bool has_inner_loop(const std::vector<Loop>& loops, std::size_t index) {
  for (const Loop& l : loops)
    if (l.parent == static_cast<int>(index)) return true;
  return false;
}

class Unroller {
 public:
  Unroller(Function& f, int factor) : f_(f), factor_(factor), registers_(f), labels_(f) {}

  PassReport run() {
    while (unroll_next()) {
    }
    const std::vector<Loop> loops = find_loops(f_);
    for (const Loop& loop : loops)
      if (!tried_.count(header_name(f_, loop)))
        note(loop, "it contains an inner loop; not unrolled");
    registers_.declare(f_);
    build_blocks(f_);
    return report_;
  }

 private:
  // Tries the first innermost loop not tried yet; false when there is none.
  bool unroll_next() {
    const std::vector<Loop> loops = find_loops(f_);
    for (std::size_t i = 0; i < loops.size(); ++i) {
      const std::string name = header_name(f_, loops[i]);
      if (has_inner_loop(loops, i) || !tried_.insert(name).second) continue;
      unroll(loops[i]);
      return true;
    }
    return false;
  }

  void unroll(const Loop& loop) {
    CountedLoop c;
    const std::string why = match_counted_loop(f_, loop, c);
    if (!why.empty()) return note(loop, why + "; not unrolled");
    c.header_label = header_name(f_, loop);
    const std::string trip = "trip count " + std::to_string(c.trip);
    UnrollPlan plan;
    if (c.trip <= kFullUnrollLimit) {
      plan.copies = static_cast<int>(c.passes) + 1;
      plan.exit_copy = static_cast<int>(c.passes);
      // Constant copies need a register type for the constants, and t, when
      // it is read after the loop, would lose its last value.
      plan.constant_induction = !registers_.type_of(c.induction).empty() && !c.temp_live_out;
      note(loop, trip + ", fully unrolled");
    } else if (factor_ < 2) {
      return note(loop, trip + " is above " + std::to_string(kFullUnrollLimit) +
                            " and the factor is " + std::to_string(factor_) + "; not unrolled");
    } else if (c.trip % factor_ != 0) {
      return note(loop,
                  trip + " is not divisible by " + std::to_string(factor_) + "; not unrolled");
    } else {
      plan.copies = factor_;
      plan.test_copy = static_cast<int>(c.passes % factor_);
      plan.loop_back = true;
      note(loop, trip + ", unrolled by " + std::to_string(factor_));
    }
    emit_unrolled(f_, c, plan, registers_, labels_);
    ++report_.changed;
  }

  void note(const Loop& loop, const std::string& text) {
    report_.notes.push_back(f_.name + ": loop at " + header_name(f_, loop) + ": " + text);
  }

  Function& f_;
  int factor_;
  RegisterPool registers_;
  LabelNamer labels_;
  std::set<std::string> tried_;  // header labels of the loops tried (they keep their label)
  PassReport report_{"unroll", 0, {}};
};

}  // namespace

PassReport pass_unroll(Function& f, int factor) {
  build_blocks(f);
  return Unroller(f, factor).run();
}

}  // namespace gpucmp::ptx
