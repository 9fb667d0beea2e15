// What unit_sampling_test.cpp and unit_measure_test.cpp both build by hand:
// an adaptive sampling rule and a benchmark name.
#pragma once
#include <string>

#include "naming.h"
#include "sampling.h"

namespace gpucmp::test {

inline SamplingRule adaptive(int min_samples, int max_samples, double max_noise,
                             double time_limit_s) {
  SamplingRule r;
  r.fixed = 0;
  r.min_samples = min_samples;
  r.max_samples = max_samples;
  r.max_noise = max_noise;
  r.time_limit_s = time_limit_s;
  return r;
}

// workload/api/variant/n:<n>
inline BenchName bench(const std::string& workload, const std::string& api,
                       const std::string& variant, const std::string& n) {
  return BenchName{workload, api, variant, {{"n", n}}};
}

}  // namespace gpucmp::test
