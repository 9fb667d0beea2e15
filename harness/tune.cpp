#include "tune.h"

#include <algorithm>
#include <iostream>
#include <limits>
#include <optional>
#include <utility>

#include "errors.h"
#include "interrupt.h"

namespace gpucmp {

namespace {

// A candidate's trial: seconds a launch, or why it was left out.
struct Trial {
  double launch_s = std::numeric_limits<double>::infinity();
  std::string left_out;  // empty: timed
};

// Prepares the candidate, uploads, launches once, validates against the CPU
// reference, then times kTuneBatches batches of about kTuneBatchS each; its
// runner (device memory) is freed on return, before the next is made.
Trial try_candidate(const Prepare& prepare, const DeviceInfo& dev) {
  try {
    Prepared p = prepare(dev);
    p.runner->upload();
    (void)p.runner->time_batch(1);  // lazy loading, first touch
    p.m.clear_output();
    p.runner->download();
    const Validation v = p.m.validate();
    if (!v.ok)
      return {std::numeric_limits<double>::infinity(), "validation failed: " + v.describe()};
    const BatchTiming probe = p.runner->time_batch(1);
    const int batch = batch_size(std::max(probe.device_s, probe.host_s), kTuneBatchS);
    Trial t;
    for (int b = 0; b < kTuneBatches; ++b) {
      interrupt::check();
      t.launch_s = std::min(t.launch_s, p.runner->time_batch(batch).device_s / batch);
    }
    return t;
  } catch (const Unavailable& e) {
    return {std::numeric_limits<double>::infinity(), e.what()};
  }
}

// The families of the rows, each with its candidates in registration order.
struct Group {
  std::string workload, api;
  TuneFamily family;
  std::vector<MeasuredEntry> candidates;
};

std::vector<Group> group_rows(const Workload& workload, const std::vector<MeasuredEntry>& rows) {
  std::vector<Group> groups;
  for (const MeasuredEntry& row : rows) {
    const std::optional<TuneFamily> family = workload.tune_family(row.name);
    if (!family) continue;
    const auto same = [&](const Group& g) {
      return g.workload == row.name.workload && g.api == row.name.api && g.family == *family;
    };
    auto it = std::find_if(groups.begin(), groups.end(), same);
    if (it == groups.end())
      it = groups.insert(groups.end(), Group{row.name.workload, row.name.api, *family, {}});
    it->candidates.push_back(row);
  }
  return groups;
}

}  // namespace

Prepare tuned_prepare(const BenchName& best, const TuneFamily& family,
                      std::vector<MeasuredEntry> candidates) {
  return [best, family, candidates = std::move(candidates)](const DeviceInfo& dev) {
    std::optional<std::size_t> fastest;
    double fastest_s = std::numeric_limits<double>::infinity();
    int timed = 0;
    std::string first_reason;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      interrupt::check();
      const Trial t = try_candidate(candidates[i].prepare, dev);
      if (!t.left_out.empty()) {
        std::cerr << "gpucmp-bench: tune: " << best.str() << ": left out "
                  << candidates[i].name.str() << ": " << t.left_out << "\n";
        if (first_reason.empty()) first_reason = candidates[i].name.str() + ": " + t.left_out;
        continue;
      }
      ++timed;
      if (t.launch_s < fastest_s) {  // a tie keeps the earlier candidate
        fastest_s = t.launch_s;
        fastest = i;
      }
    }
    const auto n = std::to_string(candidates.size());
    if (!fastest)
      throw Unavailable("--tune: none of the " + n + " candidates ran (" + first_reason + ")");
    const BenchName& chosen = candidates[*fastest].name;
    Prepared p = candidates[*fastest].prepare(dev);
    p.m.name = best;
    p.m.counters.emplace_back("tune_candidates", double(candidates.size()));
    p.m.counters.emplace_back("tune_timed", double(timed));
    p.label = "tuned=" + tuned_choice(chosen, family) + "; candidates=" + n +
              "; timed=" + std::to_string(timed);
    return p;
  };
}

void register_tuned_rows(const Workload& workload, std::size_t first, const ApiSet& apis,
                         const Options& opts) {
  const std::vector<MeasuredEntry>& all = measured_rows();
  const std::vector<MeasuredEntry> rows(all.begin() + std::ptrdiff_t(std::min(first, all.size())),
                                        all.end());
  for (Group& g : group_rows(workload, rows)) {
    const BenchName best = best_row_name(g.workload, g.api, g.family);
    register_measured(best, apis, opts, tuned_prepare(best, g.family, std::move(g.candidates)),
                      /*startup=*/false);
  }
}

}  // namespace gpucmp
