#include "sampling.h"

#include <chrono>
#include <cmath>

#include "stats.h"

namespace gpucmp {

double relative_stddev(const std::vector<double>& values) { return summarize(values).cv; }

Samples take_samples(const SamplingRule& rule, const std::function<double()>& take) {
  Samples s;
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  // Running mean and sum of squared deviations (Welford): the noise test
  // after every sample stays O(1).
  double mean = 0, m2 = 0;
  for (;;) {
    const double v = take();
    s.values.push_back(v);
    const auto n = double(s.values.size());
    const double d = v - mean;
    mean += d / n;
    m2 += d * (v - mean);
    if (rule.fixed > 0) {
      if (int(s.values.size()) >= rule.fixed) break;
      continue;
    }
    if (int(s.values.size()) < rule.min_samples) continue;
    if (mean > 0 && std::sqrt(m2 / (n - 1)) / mean <= rule.max_noise) {
      s.noise_met = true;
      break;
    }
    if (int(s.values.size()) >= rule.max_samples || elapsed() >= rule.time_limit_s) break;
  }
  s.elapsed_s = elapsed();
  return s;
}

}  // namespace gpucmp
