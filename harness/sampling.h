// Taking timed samples until a SamplingRule says stop (options.h): a fixed
// count, or a noise target with a time limit, as nvbench does.
#pragma once
#include <functional>
#include <vector>

#include "options.h"

namespace gpucmp {

struct Samples {
  std::vector<double> values;  // one value per sample (seconds per launch)
  bool noise_met = false;      // the rule's noise target was reached (fixed: false)
  double elapsed_s = 0;        // host time spent sampling
};

// Calls `take` (returns one sample) until `rule` says stop.
Samples take_samples(const SamplingRule& rule, const std::function<double()>& take);

// Relative standard deviation of `values` (0 for fewer than 2 or mean 0).
double relative_stddev(const std::vector<double>& values);

}  // namespace gpucmp
