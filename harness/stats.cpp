#include "stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpucmp {

Summary summarize(std::vector<double> values) {
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.min = values.front();
  s.max = values.back();
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(s.count);
  const std::size_t mid = s.count / 2;
  s.median = s.count % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
  if (s.count > 1) {
    double ss = 0;
    for (double v : values) ss += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(ss / double(s.count - 1));
  }
  s.cv = s.mean != 0 ? s.stddev / s.mean : 0;
  return s;
}

}  // namespace gpucmp
