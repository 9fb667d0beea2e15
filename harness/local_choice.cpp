#include "local_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <utility>

namespace gpucmp {

SmLimits sm_limits(const DeviceInfo& dev) {
  constexpr long long kKiB = 1024;
  const int cc = dev.cc_major * 10 + dev.cc_minor;
  if (cc == 75) return {1024, 16, 65536, 64 * kKiB};
  if (cc == 86 || cc == 87) return {1536, 16, 65536, 100 * kKiB};
  if (cc == 89) return {1536, 24, 65536, 100 * kKiB};
  if (cc == 80) return {2048, 32, 65536, 164 * kKiB};
  if (cc == 90) return {2048, 32, 65536, 228 * kKiB};
  return {};
}

namespace {
constexpr double kBlockCostThreads = 32;     // a block's scheduling, in threads' worth of work
constexpr long long kRegisterUnit = 256;     // registers are allocated a warp at a time, in 256s
constexpr long long kSharedUnit = 128;       // shared memory is allocated in 128-byte units
constexpr long long kSharedPerBlock = 1024;  // reserved by the system for each block

constexpr long long kSubPartitions = 4;  // an SM's register file is four quarters, one a scheduler

long long round_up(long long v, long long unit) { return (v + unit - 1) / unit * unit; }

// Warps of `registers` a thread one SM's register file holds: each warp's
// registers (in 256s) come from one of the four quarters, so a quarter holds
// a whole number of warps (the occupancy calculator's count; the OpenCL
// driver's refusals of scripts/experiments/group_size follow it: 87
// registers, 23 warps by the whole file, launch 20).
long long register_warps(int registers, const SmLimits& sm) {
  const long long per_warp = round_up(registers * 32LL, kRegisterUnit);
  return sm.registers / kSubPartitions / per_warp * kSubPartitions;
}
}  // namespace

long long blocks_per_sm(long long threads, const SmLimits& sm, const KernelResources& k) {
  const long long warps = (threads + 31) / 32;
  if (k.max_threads > 0 && threads > k.max_threads) return 0;
  // At least one: the SM limits are the compute capability's, a device's own
  // group limit may be larger (PoCL).
  long long blocks =
      std::max<long long>(1, std::min<long long>(sm.max_blocks, sm.max_threads / (warps * 32)));
  if (k.registers > 0) blocks = std::min(blocks, register_warps(k.registers, sm) / warps);
  if (k.shared > 0 && sm.shared > 0)
    blocks = std::min(blocks, sm.shared / round_up(k.shared + kSharedPerBlock, kSharedUnit));
  return std::max<long long>(0, blocks);
}

int register_limited_block(int registers, const SmLimits& sm, int device_max) {
  if (registers <= 0 || device_max <= 0) return 0;
  const long long warps = std::min<long long>(device_max / 32, register_warps(registers, sm));
  return int(std::max<long long>(0, warps) * 32);
}

double model_score(const LocalShape& s, const GlobalSize& global, const DeviceInfo& dev,
                   const KernelResources& kernel) {
  const long long threads = s.size();
  const long long warps = (threads + 31) / 32;
  const double lanes = double(threads) / double(warps * 32);

  const SmLimits sm = sm_limits(dev);
  const long long per_sm = blocks_per_sm(threads, sm, kernel);
  if (per_sm == 0) return 0;  // the kernel cannot launch with it
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

  const double block_cost = double(threads) / (double(threads) + kBlockCostThreads);
  return lanes * occupancy_loss * coalescing * balance * block_cost;
}

int tuner_budget(int candidates) {
  return std::min(std::max(0, candidates), std::max(3, candidates / 10));
}

namespace {

// Distance of x from a warp-wide row (32), counting narrower rows as farther.
int warp_row_distance(int x) { return x >= 32 ? x / 32 : 64 / std::max(x, 1); }

bool contains(const std::vector<LocalShape>& list, const LocalShape& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// Doublings between two group sizes.
int doublings(long long a, long long b) {
  return int(std::lround(std::abs(std::log2(double(a) / double(b)))));
}

// The whole-warp candidate farthest from `from` in doublings (the larger on a
// tie), if it is not `from` itself.
std::optional<LocalShape> far_whole_warp_group(const std::vector<LocalShape>& candidates,
                                               const LocalShape& from) {
  std::optional<LocalShape> far;
  for (const LocalShape& s : candidates) {
    if (s.size() % 32 != 0 || s == from) continue;
    if (!far || doublings(s.size(), from.size()) > doublings(far->size(), from.size()) ||
        (doublings(s.size(), from.size()) == doublings(far->size(), from.size()) &&
         s.size() > far->size()))
      far = s;
  }
  return far;
}

}  // namespace

std::vector<LocalShape> model_ranking(const std::vector<LocalShape>& candidates,
                                      const GlobalSize& global, const DeviceInfo& dev,
                                      const KernelResources& kernel) {
  std::vector<std::pair<double, LocalShape>> ranked;
  ranked.reserve(candidates.size());
  for (const LocalShape& s : candidates)
    ranked.emplace_back(model_score(s, global, dev, kernel), s);
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    if (a.second.size() != b.second.size()) return a.second.size() > b.second.size();
    return warp_row_distance(a.second.x) < warp_row_distance(b.second.x);
  });
  std::vector<LocalShape> out;
  out.reserve(ranked.size());
  for (const auto& entry : ranked) out.push_back(entry.second);
  return out;
}

TunerResult tune_local(const std::vector<LocalShape>& all, const GlobalSize& global,
                       const DeviceInfo& dev, int budget, const ShapeTimer& time,
                       const KernelResources& kernel) {
  TunerResult r;
  r.candidates = int(all.size());
  // The shapes the kernel can launch with (the others score 0): never timed.
  std::vector<LocalShape> candidates;
  for (const LocalShape& s : all)
    if (blocks_per_sm(s.size(), sm_limits(dev), kernel) > 0) candidates.push_back(s);
  const std::vector<LocalShape> ranked = model_ranking(candidates, global, dev, kernel);
  if (ranked.empty()) return r;
  r.shape = ranked.front();
  if (budget <= 1) return r;  // the model's first choice, unmeasured

  std::vector<LocalShape> measured{r.shape};
  double best_time = time(r.shape);
  std::vector<std::pair<double, LocalShape>> timed{{best_time, r.shape}};
  const bool line = global.dims == 1;
  // On a 1-D range, the bracket: the whole-warp group farthest from the
  // model's first choice (in doublings) is timed next, and the climb goes on
  // from the faster of the two.
  if (line) {
    if (const auto far = far_whole_warp_group(candidates, r.shape)) {
      measured.push_back(*far);
      const double t = time(*far);
      timed.emplace_back(t, *far);
      if (t < best_time) {
        best_time = t;
        r.shape = *far;
      }
    }
  }
  int step_x = 0, step_y = 0;  // the last move that helped, as log2 steps (momentum)
  // On a 1-D range, the doublings the momentum move takes: twice the last
  // move's after a success, half after a miss (a line search that brackets,
  // then bisects; a 2-D move is always one doubling).
  int reach = 1;
  while (int(measured.size()) < budget) {
    const LocalShape c = r.shape;
    const auto moved = [&c](int dx, int dy, int times = 1) {
      LocalShape m = c;
      for (int i = 0; i < times; ++i)
        m = {dx > 0 ? m.x * 2 : (dx < 0 ? m.x / 2 : m.x),
             dy > 0 ? m.y * 2 : (dy < 0 ? m.y / 2 : m.y)};
      return m;
    };
    const std::vector<std::pair<int, int>> steps = {{-1, 1}, {1, -1}, {0, 1},
                                                    {0, -1}, {1, 0},  {-1, 0}};
    std::vector<LocalShape> around;
    around.reserve(steps.size());
    for (const auto& [dx, dy] : steps) around.push_back(moved(dx, dy));
    // The step that helped last (at its reach, shortened until it is a new
    // shape), first; then the neighbours best-ranked first.
    const LocalShape* next = nullptr;
    LocalShape again = c;
    for (; (step_x != 0 || step_y != 0) && reach >= 1; reach /= 2) {
      again = moved(step_x, step_y, reach);
      if (contains(candidates, again) && !contains(measured, again)) {
        next = &again;
        break;
      }
    }
    reach = std::max(reach, 1);
    for (const LocalShape& s : ranked) {
      if (next) break;
      if (!contains(measured, s) && contains(around, s)) next = &s;
    }
    if (!next) break;  // every neighbour measured: the fastest so far is a local optimum
    const LocalShape s = *next;
    const bool momentum = next == &again;
    measured.push_back(s);
    const double t = time(s);
    timed.emplace_back(t, s);
    if (t < best_time) {
      step_x = s.x > c.x ? 1 : (s.x < c.x ? -1 : 0);
      step_y = s.y > c.y ? 1 : (s.y < c.y ? -1 : 0);
      const int taken = momentum ? reach : 1;
      reach = line ? 2 * taken : 1;
      best_time = t;
      r.shape = s;
    } else if (momentum) {
      reach = std::max(1, reach / 2);
    }
  }
  r.measured = int(measured.size());

  // The climb's single timings can rank two shapes a few percent apart
  // either way (short kernels): time the two fastest again, alternately,
  // and keep the one with the lower median of three. No new shape is timed.
  if (timed.size() >= 2) {
    std::sort(timed.begin(), timed.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<double> first{timed[0].first}, second{timed[1].first};
    for (int round = 0; round < 2; ++round) {
      second.push_back(time(timed[1].second));
      first.push_back(time(timed[0].second));
    }
    const auto median3 = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[1];
    };
    r.shape = median3(second) < median3(first) ? timed[1].second : timed[0].second;
  }
  return r;
}

}  // namespace gpucmp
