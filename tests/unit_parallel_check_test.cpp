// Unit tests of the host's threaded checks (harness/parallel_for.h, its fill,
// check_elements_parallel in harness/validation.h): every item once, an
// exception carried back, and the same Validation as the serial check, the
// worst element being the first of the largest errors. No device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel_for.h"
#include "rng.h"
#include "validation.h"

namespace gpucmp {
namespace {

TEST(ParallelFor, EveryItemOnceInRangesInOrder) {
  for (std::size_t count : {0UL, 1UL, 255UL, 256UL, 100000UL}) {
    std::vector<std::atomic<int>> seen(count);
    std::vector<std::size_t> begins(host_threads(count, 16), count + 1);
    parallel_for(count, 16, [&](std::size_t begin, std::size_t end, unsigned t) {
      begins[t] = begin;
      for (std::size_t i = begin; i < end; ++i) ++seen[i];
    });
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(seen[i].load(), 1) << i << " of " << count;
    for (std::size_t t = 1; t < begins.size(); ++t) EXPECT_LE(begins[t - 1], begins[t]);
  }
}

TEST(ParallelFor, AnExceptionReachesTheCaller) {
  EXPECT_THROW(parallel_for(100000, 16,
                            [](std::size_t begin, std::size_t end, unsigned) {
                              if (begin <= 77777 && 77777 < end) throw std::runtime_error("x");
                            }),
               std::runtime_error);
}

TEST(FillParallel, EveryElementTakesTheValueConverted) {
  for (std::size_t count : {0UL, 1UL, (3UL << 20) + 7}) {
    std::vector<float> v(count, 1.0f);
    fill_parallel(v, NAN);
    for (std::size_t i = 0; i < count; ++i) ASSERT_TRUE(std::isnan(v[i])) << i << " of " << count;
  }
  std::vector<unsigned> u((2UL << 20) + 3, 0U);
  fill_parallel(u, 0xdeadbeefU);
  EXPECT_EQ(std::count(u.begin(), u.end(), 0xdeadbeefU), std::ptrdiff_t(u.size()));
}

TEST(CheckElementsParallel, SameValidationAsTheSerialCheck) {
  Rng rng(42);
  for (std::size_t count : {0UL, 1UL, 1000UL, 300000UL}) {
    std::vector<double> err(count);
    for (double& e : err) e = double(rng.below(1000)) * 1e-9;  // many ties
    if (count > 10) {
      err[count / 3] = 5e-6;  // the largest twice: the first one is the worst
      err[count - 2] = 5e-6;
      err[count / 2] = NAN;  // unless there is a NaN, which counts as infinite
    }
    for (bool with_nan : {true, false}) {
      if (!with_nan && count > 10) err[count / 2] = 0;
      const auto e = [&](std::size_t i) { return err[i]; };
      const auto where = [](std::size_t i) { return "element " + std::to_string(i); };
      const Validation serial = check_elements(count, 1e-6, e, where);
      const Validation parallel = check_elements_parallel(count, 1e-6, e, where);
      EXPECT_EQ(parallel.ok, serial.ok) << count;
      EXPECT_EQ(parallel.max_rel_err, serial.max_rel_err) << count;
      EXPECT_EQ(parallel.where, serial.where) << count;
      EXPECT_EQ(parallel.checked, serial.checked) << count;
      if (count > 10) {
        EXPECT_EQ(serial.where, "element " + std::to_string(with_nan ? count / 2 : count / 3));
      }
    }
  }
}

}  // namespace
}  // namespace gpucmp
