#include "local_choice.h"

#include <algorithm>
#include <cmath>

namespace gpucmp {

SmLimits sm_limits(const DeviceInfo& dev) {
  const int cc = dev.cc_major * 10 + dev.cc_minor;
  if (cc == 75) return {1024, 16};
  if (cc == 86 || cc == 87) return {1536, 16};
  if (cc == 89) return {1536, 24};
  return {};
}

double model_score(const LocalShape& s, const GlobalSize& global, const DeviceInfo& dev) {
  const long long threads = s.size();
  const long long warps = (threads + 31) / 32;
  const double lanes = double(threads) / double(warps * 32);

  const SmLimits sm = sm_limits(dev);
  const long long per_sm =
      std::max<long long>(1, std::min<long long>(sm.max_blocks, sm.max_threads / (warps * 32)));
  const double occupancy = double(per_sm * threads) / sm.max_threads;
  const double occupancy_loss = std::min(1.0, occupancy / 0.5);

  double coalescing = 1;
  if (global.dims == 2 && s.x < 32) {
    const long long rows = std::min<long long>((32 + s.x - 1) / s.x, s.y);
    const double sectors_per_row = std::ceil(double(s.x) * 4 / 32);
    coalescing = std::min(1.0, 4.0 / (double(rows) * sectors_per_row));
  }

  const int sms = std::max(1, dev.compute_units);
  const long long blocks = global.x * global.y / threads;
  const long long busiest = (blocks + sms - 1) / sms;  // blocks on the busiest SM
  const double balance = (double(blocks) / sms) / double(busiest);

  return lanes * occupancy_loss * coalescing * balance;
}

int tuner_budget(int candidates) { return std::max(1, candidates / 10); }

std::vector<LocalShape> tuner_shortlist(const std::vector<LocalShape>& candidates,
                                        const GlobalSize& global, const DeviceInfo& dev,
                                        int budget) {
  std::vector<std::pair<double, LocalShape>> ranked;
  ranked.reserve(candidates.size());
  for (const LocalShape& s : candidates) ranked.emplace_back(model_score(s, global, dev), s);
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    if (a.second.size() != b.second.size()) return a.second.size() > b.second.size();
    return a.second.x > b.second.x;
  });
  std::vector<LocalShape> out;
  for (const auto& [score, shape] : ranked) {
    if (int(out.size()) == budget) break;
    bool size_taken = false;
    for (const LocalShape& s : out) size_taken = size_taken || s.size() == shape.size();
    if (!size_taken) out.push_back(shape);
  }
  return out;
}

}  // namespace gpucmp
