#include "work_split.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "errors.h"

namespace gpucmp {

std::string to_string(SplitRule rule) {
  switch (rule) {
    case SplitRule::equal:
      return "equal";
    case SplitRule::pe_ratio:
      return "pe";
    case SplitRule::study_k:
      return "study-k";
    case SplitRule::calibrated:
      return "calibrated";
  }
  return "?";
}

SplitRule parse_split_rule(const std::string& text, const std::string& what) {
  for (SplitRule r :
       {SplitRule::equal, SplitRule::pe_ratio, SplitRule::study_k, SplitRule::calibrated})
    if (text == to_string(r)) return r;
  throw UsageError(what + " " + text + ": not a split rule (equal, pe, study-k, calibrated)");
}

double study_k(double ops) {
  if (ops > 8e11) return 0.25;
  if (ops < 4e8) return 1.25;
  return 0.75;
}

namespace {

std::vector<double> proportional(const std::vector<double>& weights, const char* what) {
  if (weights.empty()) throw std::invalid_argument(std::string("split: no ") + what);
  for (double w : weights)
    if (!(w > 0)) throw std::invalid_argument(std::string("split: a non-positive ") + what);
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<double> out;
  out.reserve(weights.size());
  for (double w : weights) out.push_back(w / total);
  return out;
}

}  // namespace

std::vector<double> split_fractions(SplitRule rule, const std::vector<double>& pe,
                                    const std::vector<double>& throughput, double ops) {
  switch (rule) {
    case SplitRule::equal: {
      const std::size_t n = std::max(pe.size(), throughput.size());
      if (n == 0) throw std::invalid_argument("split: no devices");
      std::vector<double> out(n, 1.0 / double(n));  // not {n, x}: that is a list of two
      return out;
    }
    case SplitRule::pe_ratio:
      return proportional(pe, "PE count");
    case SplitRule::calibrated:
      return proportional(throughput, "throughput");
    case SplitRule::study_k: {
      if (pe.size() != 2)
        throw std::invalid_argument("split: the study's k model is for two devices");
      const std::vector<double> ratio = proportional(pe, "PE count");
      const std::size_t small = ratio[0] <= ratio[1] ? 0 : 1;
      if (pe[small] / pe[1 - small] > 2.0 / 3.0) return {0.5, 0.5};  // closer than 2:3
      std::vector<double> out(2);
      out[small] = std::min(1.0, ratio[small] * study_k(ops));
      out[1 - small] = 1.0 - out[small];
      return out;
    }
  }
  throw std::invalid_argument("split: unknown rule");
}

std::vector<UnitBlock> split_units(long long units, const std::vector<double>& fractions,
                                   long long granule) {
  if (granule <= 0 || units % granule != 0)
    throw std::invalid_argument("split: " + std::to_string(units) +
                                " units are not a multiple of the granule " +
                                std::to_string(granule));
  const long long granules = units / granule;
  std::vector<UnitBlock> out;
  out.reserve(fractions.size());
  long long given = 0;  // granules handed out so far
  double wanted = 0;    // the fractions' running sum
  for (std::size_t i = 0; i < fractions.size(); ++i) {
    wanted += fractions[i];
    // Rounding the running sum (not each share) keeps the total exact.
    const long long upto = i + 1 == fractions.size()
                               ? granules
                               : std::min(granules, std::llround(wanted * double(granules)));
    const long long count = std::max(0LL, upto - given);
    out.push_back({given * granule, count * granule});
    given += count;
  }
  return out;
}

std::vector<double> balanced_fractions(const std::vector<DeviceCost>& costs) {
  const std::size_t n = costs.size();
  if (n == 0 || n > 16) throw std::invalid_argument("split: 1 to 16 devices");
  for (const DeviceCost& c : costs)
    if (!(c.per_share_s > 0) || c.fixed_s < 0)
      throw std::invalid_argument("split: a device cost without a positive per-share time");
  std::vector<double> best;
  double best_time = 0;
  for (unsigned set = 1; set < (1u << n); ++set) {
    double inverse_sum = 0, ratio_sum = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (set & (1u << i)) {
        inverse_sum += 1.0 / costs[i].per_share_s;
        ratio_sum += costs[i].fixed_s / costs[i].per_share_s;
      }
    const double time = (1.0 + ratio_sum) / inverse_sum;
    std::vector<double> f(n, 0.0);
    bool feasible = true;
    for (std::size_t i = 0; i < n && feasible; ++i)
      if (set & (1u << i)) {
        f[i] = (time - costs[i].fixed_s) / costs[i].per_share_s;
        feasible = f[i] >= 0;
      }
    if (feasible && (best.empty() || time < best_time)) {
      best = f;
      best_time = time;
    }
  }
  return best;  // never empty: a single device is always feasible
}

std::string to_string(SplitAxis axis) { return axis == SplitAxis::x ? "x" : "y"; }

Rect part_rect(const Part& part, long long width, long long height) {
  if (part.whole()) return {0, 0, width, height};
  if (part.axis == SplitAxis::x) return {part.first, 0, part.count, height};
  return {0, part.first, width, part.count};
}

}  // namespace gpucmp
