#include "split_rows.h"

#include <algorithm>
#include <map>
#include <memory>

#include "errors.h"

namespace gpucmp {

namespace {

// The parts of `fractions` of `units` in whole granules along the axis.
std::vector<Part> parts_of(const std::vector<double>& fractions, SplitAxis axis, long long units,
                           long long granule) {
  std::vector<Part> parts;
  for (const UnitBlock& b : split_units(units, fractions, granule))
    parts.push_back({axis, b.first, b.count});
  return parts;
}

}  // namespace

SplitChoice resolve_split(const SplitSpec& spec, SplitAxis axis, SplitExecutor& executor,
                          const SplitRow& row, long long units, long long granule, double ops,
                          int launches) {
  const DeviceGroup& group = executor.group();
  const int n = group.size();
  SplitChoice choice;
  std::vector<double> fractions;
  if (spec.fixed_share) {
    fractions.assign(n, n > 1 ? (1.0 - spec.share) / (n - 1) : 1.0);
    fractions[0] = n > 1 ? spec.share : 1.0;
  } else if (spec.rule == SplitRule::calibrated) {
    // Each device is probed on its part of the equal split and on the first
    // work-group row (or column) of it; the two predicted jobs fix a line,
    // fixed cost + cost per unit, and balanced_fractions picks the split
    // (which may leave a device idle).
    const std::vector<Part> equal = parts_of(std::vector<double>(n, 1.0 / n), axis, units, granule);
    std::vector<Part> small = equal;
    for (Part& part : small) {
      if (part.count == 0)
        throw UsageError("--split calibrated: " + std::to_string(units / granule) +
                         " work-groups along " + to_string(axis) + " cannot give each of " +
                         std::to_string(n) + " devices one to probe");
      part.count = granule;
    }
    const int probe_launches = std::max(1, launches / 10);
    const ProbeResult big = executor.probe(row, equal, launches, probe_launches);
    const ProbeResult one = executor.probe(row, small, launches, probe_launches);
    std::vector<DeviceCost> costs;
    costs.reserve(n);
    for (int i = 0; i < n; ++i) {
      const auto du = double(equal[i].count - small[i].count);
      double per_unit = du > 0 ? (big.job_s[i] - one.job_s[i]) / du : 0;
      if (!(per_unit > 0))
        per_unit = big.job_s[i] / double(equal[i].count);  // noise: no fixed part
      const double fixed = std::max(0.0, one.job_s[i] - per_unit * double(small[i].count));
      costs.push_back({fixed, std::max(per_unit * double(units), 1e-12)});
      const std::string d = std::to_string(i);
      choice.counters.emplace_back("probe_fixed_ms_" + d, costs.back().fixed_s * 1e3);
      choice.counters.emplace_back("probe_all_ms_" + d,
                                   (costs.back().fixed_s + costs.back().per_share_s) * 1e3);
    }
    choice.counters.emplace_back("probe_launches", probe_launches);
    fractions = balanced_fractions(costs);
  } else {
    std::vector<double> pe;
    pe.reserve(n);
    for (int i = 0; i < n; ++i) pe.push_back(processing_elements(group.info(i)));
    fractions = split_fractions(spec.rule, pe, {}, ops);
    if (spec.rule == SplitRule::study_k) choice.counters.emplace_back("study_k", study_k(ops));
  }
  choice.parts = parts_of(fractions, axis, units, granule);
  return choice;
}

void check_split_spec(const SplitSpec& spec, int devices, const std::string& api) {
  if (!spec.fixed_share && spec.rule == SplitRule::study_k && devices > 2)
    throw UsageError("--split study-k: the study's k model is for two devices; " + api + " has " +
                     std::to_string(devices) + " split devices");
}

int split_device_count(const ApiSet& apis, const std::string& api, const SplitOptions& opts) {
  if (const int ranks = mpi_split_ranks(); ranks > 0) return ranks;
  const auto it = apis.find(api);
  if (it != apis.end() && it->second->split_group()) return it->second->split_group()->size();
  return int(api == "cuda" ? opts.cuda_devices.size() : opts.cl_devices.size());
}

void add_split_counters(Measurement& m, const SplitChoice& choice, int launches, long long units) {
  // A job is host-timed over several devices' uploads, launches and
  // downloads: no launch-bound mark against one device's launch floor.
  m.commands_per_launch = 0;
  m.counters.emplace_back("devices", double(choice.parts.size()));
  m.counters.emplace_back("launches_per_job", launches);
  for (std::size_t i = 0; i < choice.parts.size(); ++i)
    m.counters.emplace_back("share_" + std::to_string(i),
                            double(choice.parts[i].count) / double(units));
  for (const auto& c : choice.counters) m.counters.push_back(c);
}

}  // namespace gpucmp
