// --tune: each API at its best, chosen by the run itself. For every family
// of a workload's timed rows (Workload::tune_family: one problem, one math,
// each API's own implementations) one more row per API,
// <workload>/<api>/best/<problem>[/math:<class>], whose prepare times every
// candidate briefly and returns the fastest, which the row then measures and
// validates by the one protocol (measure.h), as any row. docs/usage.md says
// what its label and counters hold.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "api.h"
#include "options.h"
#include "workload.h"

namespace gpucmp {

// A candidate's trial: about this much device time a batch, the least of
// this many batches, after a validated first launch.
constexpr double kTuneBatchS = 2e-3;
constexpr int kTuneBatches = 3;

// Registers the best row of every family among measured_rows()[first..] (the
// rows `workload` registered since then), in the order their first candidate
// was registered, after them.
void register_tuned_rows(const Workload& workload, std::size_t first, const ApiSet& apis,
                         const Options& opts);

// The best rows' prepare: for each candidate in turn prepares it, uploads,
// launches once and validates, times its trial batches and frees it; then
// prepares the fastest again and names it `best`, with the label and the
// tune_candidates / tune_timed counters. A candidate that is unavailable or
// fails validation is left out (one line on stderr); none left: Unavailable.
Prepare tuned_prepare(const BenchName& best, const TuneFamily& family,
                      std::vector<MeasuredEntry> candidates);

}  // namespace gpucmp
