// Unit tests of the 1-D work-size workloads' host side (no device): sort's
// bitonic indexing, reference and exact validation; trapezoid's reference,
// the kernels' tree reduction, the partials' layout and validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "rng.h"
#include "workloads/worksize/sort.h"
#include "workloads/worksize/trapezoid.h"

namespace gpucmp {
namespace {

// ---- sort -------------------------------------------------------------------

TEST(Sort, PassesAndCountedBytes) {
  EXPECT_EQ(sort::passes(2), 1);
  EXPECT_EQ(sort::passes(1024), 55);
  EXPECT_EQ(sort::passes(std::size_t(1) << 18), 171);
  // 171 passes and the restore copy, each 8 bytes per element.
  EXPECT_DOUBLE_EQ(sort::counted_bytes(std::size_t(1) << 18), 172.0 * 8 * (1 << 18));
  EXPECT_EQ(sort::global_size(std::size_t(1) << 18).x, 1 << 17);
  EXPECT_EQ(sort::preset_sizes(SizePreset::standard), std::vector<std::size_t>{1 << 18});
}

TEST(Sort, CompareExchangePairsAndDirections) {
  // Stage k = 4, distance j = 2: t = 0 pairs (0, 2), t = 1 pairs (1, 3); bit 2
  // of i is 0: ascending.
  std::vector<float> a = {3, 2, 1, 0};
  sort::compare_exchange(a.data(), 0, 4, 2);
  EXPECT_EQ(a, (std::vector<float>{1, 2, 3, 0}));
  sort::compare_exchange(a.data(), 1, 4, 2);
  EXPECT_EQ(a, (std::vector<float>{1, 0, 3, 2}));
  // Stage k = 2, j = 1: t = 1 pairs (2, 3) and bit 1 of i = 2 is set: descending.
  std::vector<float> b = {0, 1, 2, 3};
  sort::compare_exchange(b.data(), 1, 2, 1);
  EXPECT_EQ(b, (std::vector<float>{0, 1, 3, 2}));
  // j = 4: t = 5 (101b) becomes i = 9 (1001b), its partner 13.
  std::vector<float> c(16, 0.0f);
  c[9] = 1;
  sort::compare_exchange(c.data(), 5, 16, 4);
  EXPECT_EQ(c[9], 0.0f);
  EXPECT_EQ(c[13], 1.0f);
}

TEST(Sort, NetworkSortsEveryPowerOfTwo) {
  for (std::size_t n = 2; n <= 4096; n *= 2) {
    Rng rng(n);
    std::vector<float> a(n);
    for (auto& x : a) x = rng.uniform(-1, 1);
    std::vector<float> want = a;
    std::sort(want.begin(), want.end());
    sort::bitonic_sort_cpu(a);
    EXPECT_EQ(a, want) << "n = " << n;
  }
}

TEST(Sort, ProblemReferenceIsSortedInput) {
  const sort::Problem p = sort::make_problem(1024);
  EXPECT_TRUE(std::is_sorted(p.sorted.begin(), p.sorted.end()));
  std::vector<float> in = p.input;
  std::sort(in.begin(), in.end());
  EXPECT_EQ(in, p.sorted);
  EXPECT_FALSE(std::is_sorted(p.input.begin(), p.input.end()));
  for (float x : p.input) EXPECT_FALSE(std::signbit(x) && x == 0.0f);
}

TEST(Sort, ValidateIsExact) {
  sort::Problem p = sort::make_problem(1024);
  p.output = p.sorted;
  Validation v = sort::validate(p);
  EXPECT_TRUE(v.ok) << v.describe();
  EXPECT_EQ(v.max_rel_err, 0.0);

  p.output[500] = std::nextafter(p.output[500], 2.0f);  // one ulp off
  v = sort::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("out[500]"), std::string::npos) << v.where;

  p.output = p.sorted;
  std::swap(p.output[10], p.output[11]);
  EXPECT_FALSE(sort::validate(p).ok);

  p.output = p.sorted;
  p.output[3] = NAN;
  EXPECT_FALSE(sort::validate(p).ok);
}

TEST(Sort, ValidateTellsSignedZeros) {
  sort::Problem p;
  p.n = 2;
  p.sorted = {0.0f, 1.0f};
  p.output = {-0.0f, 1.0f};
  EXPECT_FALSE(sort::validate(p).ok);
}

// ---- trapezoid --------------------------------------------------------------

TEST(Trapezoid, ItemIntegralByHand) {
  EXPECT_DOUBLE_EQ(trapezoid::integrand(0.0), 4.0);
  EXPECT_DOUBLE_EQ(trapezoid::integrand(0.5), 3.2);
  EXPECT_DOUBLE_EQ(trapezoid::integrand(1.0), 2.0);
  // One step over [0, 1]: (4 + 2) / 2.
  EXPECT_DOUBLE_EQ(trapezoid::item_integral(0, 1, 1.0), 3.0);
  // Two steps of 1/2: (4/2 + 3.2 + 2/2) / 2.
  EXPECT_DOUBLE_EQ(trapezoid::item_integral(0, 2, 0.5), 3.1);
  // Item 1 of one step of 1/2: [0.5, 1], (3.2 + 2) / 2 / 2.
  EXPECT_DOUBLE_EQ(trapezoid::item_integral(1, 1, 0.5), 1.3);
}

TEST(Trapezoid, ProblemMatchesTheRulesErrorTerm) {
  const trapezoid::Problem p = trapezoid::make_problem(1024);
  EXPECT_EQ(p.h, std::ldexp(1.0f, -16));  // 1 / (1024 x 64), exact
  // The composite rule over [0, 1] gives the integral plus (h^2 / 12)(f'(1) -
  // f'(0)) + O(h^4) = pi - h^2 / 6 (4e-11): a node off by one would move it by
  // about h f, 6e-5.
  const double h = p.h;
  EXPECT_NEAR(p.ref_sum - M_PI, -h * h / 6, 1e-13);
  EXPECT_DOUBLE_EQ(trapezoid::counted_flops(1024), 5.0 * 64 * 1024);
}

TEST(Trapezoid, GroupSumAddsEveryItemForAnySize) {
  std::vector<unsigned> sizes;
  for (unsigned size = 1; size <= 1100; ++size) sizes.push_back(size);
  for (unsigned size : {2047u, 2048u, 3000u, 4096u}) sizes.push_back(size);
  for (unsigned size : sizes) {
    std::vector<float> s(size);
    for (unsigned i = 0; i < size; ++i) s[i] = float(i + 1);  // exact sums below 2^24
    ASSERT_EQ(trapezoid::group_sum(s), float(size) * float(size + 1) / 2) << "size " << size;
  }
}

TEST(Trapezoid, GroupSizeOfLayout) {
  EXPECT_EQ(trapezoid::group_size_of({5, 0, 0, 0, 6, 0, 0, 0}), 4u);
  EXPECT_EQ(trapezoid::group_size_of({5, 6}), 1u);
  EXPECT_EQ(trapezoid::group_size_of({5, 0, 0}), 3u);
  EXPECT_EQ(trapezoid::group_size_of({5, NAN, 0}), 1u);
}

// What the device writes for groups of `group` items, computed in float as
// the kernels do.
void emulate_device(trapezoid::Problem& p, std::size_t group) {
  std::fill(p.partials.begin(), p.partials.end(), 0.0f);
  for (std::size_t first = 0; first < p.items; first += group) {
    std::vector<float> sums(group);
    for (std::size_t l = 0; l < group; ++l)
      sums[l] = trapezoid::item_sum_float(unsigned(first + l), p.h);
    p.partials[first] = trapezoid::group_sum(sums);
  }
}

TEST(Trapezoid, ValidateAcceptsTheFloatKernelForEveryGroupSize) {
  trapezoid::Problem p = trapezoid::make_problem(4096);
  for (std::size_t group : {1, 2, 64, 256, 1024, 4096}) {
    emulate_device(p, group);
    const Validation v = trapezoid::validate(p);
    EXPECT_TRUE(v.ok) << "group " << group << ": " << v.describe();
    EXPECT_GT(v.max_rel_err, 0.0);  // float arithmetic did round somewhere
    EXPECT_NE(v.where.find("sum - pi"), std::string::npos) << v.where;
  }
}

TEST(Trapezoid, ValidateCatchesADroppedItem) {
  trapezoid::Problem p = trapezoid::make_problem(1024);
  emulate_device(p, 1024);
  // One item of 1024 missing: the total is 1/1024 short.
  p.partials[0] -= trapezoid::item_sum_float(700, p.h);
  EXPECT_FALSE(trapezoid::validate(p).ok);

  // Groups of 256, the third one's total missing.
  emulate_device(p, 256);
  p.partials[512] = 0.0f;
  const Validation v = trapezoid::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("partials[512]"), std::string::npos) << v.where;
}

TEST(Trapezoid, ValidateCatchesAStrayEntry) {
  trapezoid::Problem p = trapezoid::make_problem(1024);
  emulate_device(p, 256);
  p.partials[300] = 1e-3f;  // a write where no group starts
  EXPECT_FALSE(trapezoid::validate(p).ok);
  emulate_device(p, 256);
  p.partials[256] = NAN;
  EXPECT_FALSE(trapezoid::validate(p).ok);
}

}  // namespace
}  // namespace gpucmp
