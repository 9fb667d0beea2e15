// Summary statistics of a sample (seconds, rates, ...).
#pragma once
#include <vector>

namespace gpucmp {

struct Summary {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 for n < 2
  double cv = 0;      // stddev / mean; 0 when mean == 0
};

Summary summarize(std::vector<double> values);

}  // namespace gpucmp
