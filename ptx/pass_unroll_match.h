// Recognizes counted loops for pass_unroll (passes.h): which register counts,
// from what constant, by what step, where the one exit test stands and how
// many times the loop runs. Internal to ptx/.
#pragma once
#include <string>
#include <vector>

#include "cfg.h"
#include "ir.h"

namespace gpucmp::ptx {

// A natural loop whose blocks are contiguous in body order, header first, with
// forward edges only (besides the back edges to the header), one exit edge
// taken by a guarded bra, and an induction register i updated by a constant
// step once per iteration. An iteration runs through the exit test N times
// without leaving ("passes"), and leaves at pass N, part way through.
struct CountedLoop {
  std::string header_label;
  int begin = 0;  // body statements [begin, end) hold the whole loop
  int end = 0;
  std::vector<std::string> labels;         // every label in [begin, end)
  std::vector<std::string> header_labels;  // the header block's labels

  std::string induction;  // i
  std::string temp;       // t of `add t, i, step; mov i, t`, or ""
  int update = -1;        // statement that writes i
  int temp_update = -1;   // statement that writes t, or -1
  long long start = 0;    // i on entry
  long long step = 0;

  int test_branch = -1;         // the guarded bra that can leave the loop
  std::vector<int> test_chain;  // setp / not.pred feeding only that bra (removable
                                // with it); empty when something else reads them
  bool exit_is_target = true;   // leaves by the branch (else by falling through)
  std::string exit_label;       // where it leaves to ("" if that block has none)
  std::string continue_label;   // the in-loop branch target when exit_is_target is false

  bool update_before_exit = false;  // i is written before the exit test in a pass
  std::vector<bool> after_update;   // per statement in [begin, end): reads i's new value
  long long passes = 0;             // N
  long long trip = 0;               // times the update runs: N, or N + 1

  bool induction_live_out = false;  // i is read after the loop
  bool temp_live_out = false;       // t is read after the loop
};

// Fills `out` and returns "" for a counted loop; otherwise returns why it is
// not one ("bound %r5 is not a constant").
std::string match_counted_loop(const Function& f, const Loop& loop, CountedLoop& out);

}  // namespace gpucmp::ptx
