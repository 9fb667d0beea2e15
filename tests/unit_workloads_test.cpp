// Unit tests of the workloads' host-side definitions: inputs, references,
// validation, work counts and size presets (no device needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/sdk/bandwidth.h"
#include "workloads/sdk/matrixmul.h"

namespace gpucmp {
namespace {

// ---- matrixMul --------------------------------------------------------------

// C = A x B accumulated in double, each entry rounded once to float: within
// 2^-24 relative of the exact product, so inside any tolerance n * 2^-24.
void fill_correct_product(matrixmul::Problem& p) {
  const int n = p.n;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int k = 0; k < n; ++k)
        sum += double(p.a[std::size_t(i) * n + k]) * double(p.b[std::size_t(k) * n + j]);
      p.c[std::size_t(i) * n + j] = float(sum);
    }
  }
}

TEST(MatrixMul, MakeProblemIsDeterministic) {
  const auto p = matrixmul::make_problem(64);
  const auto q = matrixmul::make_problem(64);
  EXPECT_EQ(p.n, 64);
  ASSERT_EQ(p.a.size(), 64u * 64u);
  ASSERT_EQ(p.b.size(), 64u * 64u);
  ASSERT_EQ(p.c.size(), 64u * 64u);
  EXPECT_EQ(p.a, q.a);
  EXPECT_EQ(p.b, q.b);
  EXPECT_NE(p.a, p.b);  // two different matrices, not one stream copied
}

TEST(MatrixMul, DifferentSizesGetDifferentInputs) {
  const auto p = matrixmul::make_problem(32);
  const auto q = matrixmul::make_problem(64);
  // Compare the first 32 values: a different seed per n.
  EXPECT_NE(std::vector<float>(p.a.begin(), p.a.begin() + 32),
            std::vector<float>(q.a.begin(), q.a.begin() + 32));
}

TEST(MatrixMul, InputsAreInHalfOpenUnitRange) {
  const auto p = matrixmul::make_problem(128);
  float lo = 1, hi = -1;
  for (const auto* m : {&p.a, &p.b}) {
    for (float x : *m) {
      ASSERT_GE(x, -1.0f);
      ASSERT_LT(x, 1.0f);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  EXPECT_LT(lo, -0.9f);
  EXPECT_GT(hi, 0.9f);
}

TEST(MatrixMul, ToleranceIsNTimesUnitRoundoff) {
  EXPECT_DOUBLE_EQ(matrixmul::tolerance(1), 1.0 / 16777216.0);
  EXPECT_DOUBLE_EQ(matrixmul::tolerance(64), 64.0 / 16777216.0);
  EXPECT_DOUBLE_EQ(matrixmul::tolerance(1024), 1024.0 / 16777216.0);  // 2^-14
}

TEST(MatrixMul, ValidateAcceptsCorrectProduct32) {
  auto p = matrixmul::make_problem(32);
  fill_correct_product(p);
  const Validation v = matrixmul::validate(p);
  EXPECT_TRUE(v.ok) << v.describe();
  EXPECT_EQ(v.checked, 32u * 32u);  // n <= 512: every entry
  EXPECT_DOUBLE_EQ(v.tolerance, matrixmul::tolerance(32));
  EXPECT_LE(v.max_rel_err, v.tolerance);
}

TEST(MatrixMul, ValidateFindsPerturbedEntry32) {
  auto p = matrixmul::make_problem(32);
  fill_correct_product(p);
  p.c[std::size_t(5) * 32 + 17] += 1.0f;
  const Validation v = matrixmul::validate(p);
  EXPECT_FALSE(v.ok) << v.describe();
  EXPECT_GT(v.max_rel_err, v.tolerance);
  EXPECT_EQ(v.where.rfind("c[5,17]", 0), 0u) << v.where;
  EXPECT_NE(v.describe().find("c[5,17]"), std::string::npos) << v.describe();
}

TEST(MatrixMul, ValidateRejectsNan) {
  auto p = matrixmul::make_problem(32);
  fill_correct_product(p);
  p.c[std::size_t(31) * 32 + 0] = NAN;
  const Validation v = matrixmul::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(std::isinf(v.max_rel_err));
  EXPECT_EQ(v.where.rfind("c[31,0]", 0), 0u) << v.where;
}

TEST(MatrixMul, ValidateFullPath64) {
  auto p = matrixmul::make_problem(64);
  fill_correct_product(p);
  const Validation good = matrixmul::validate(p);
  EXPECT_TRUE(good.ok) << good.describe();
  EXPECT_EQ(good.checked, 64u * 64u);
  EXPECT_DOUBLE_EQ(good.tolerance, 64 * std::ldexp(1.0, -24));

  // 0.01 on one entry: relative to sum_k |a_ik b_kj| (about 64 x 0.25 = 16)
  // that is ~6e-4, far over 64 x 2^-24 = 3.8e-6.
  p.c[std::size_t(63) * 64 + 63] += 0.01f;
  const Validation bad = matrixmul::validate(p);
  EXPECT_FALSE(bad.ok) << bad.describe();
  EXPECT_EQ(bad.where.rfind("c[63,63]", 0), 0u) << bad.where;
}

TEST(MatrixMul, ValidateRejectsUntouchedOutput) {
  // make_problem leaves c all zeros: nowhere near A x B.
  const auto p = matrixmul::make_problem(64);
  EXPECT_FALSE(matrixmul::validate(p).ok);
}

// Above kFullCheckMaxN a seeded sample of kSampledEntries entries is checked.
TEST(MatrixMul, ValidateSampledPath) {
  const int n = matrixmul::kFullCheckMaxN + 32;  // 544: sampled, still cheap to multiply
  auto p = matrixmul::make_problem(n);
  const Validation zero = matrixmul::validate(p);
  EXPECT_FALSE(zero.ok);
  EXPECT_EQ(zero.checked, std::size_t(matrixmul::kSampledEntries));

  fill_correct_product(p);
  const Validation good = matrixmul::validate(p);
  EXPECT_TRUE(good.ok) << good.describe();
  EXPECT_EQ(good.checked, std::size_t(matrixmul::kSampledEntries));
}

TEST(MatrixMul, Flops) {
  EXPECT_EQ(matrixmul::flops(4), 128.0);  // 2 x 4^3
  EXPECT_EQ(matrixmul::flops(1024), 2.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(matrixmul::flops(16384), 2.0 * 16384.0 * 16384.0 * 16384.0);  // no int overflow
}

TEST(MatrixMul, PresetSizesAreTileMultiples) {
  for (SizePreset s : {SizePreset::quick, SizePreset::standard, SizePreset::large}) {
    const auto sizes = matrixmul::preset_sizes(s);
    EXPECT_FALSE(sizes.empty()) << to_string(s);
    for (int n : sizes) EXPECT_EQ(n % 32, 0) << to_string(s) << " n=" << n;
  }
  EXPECT_EQ(matrixmul::preset_sizes(SizePreset::quick), (std::vector<int>{256, 512}));
  EXPECT_EQ(matrixmul::preset_sizes(SizePreset::large).back(), 16384);
}

// ---- bandwidth --------------------------------------------------------------

TEST(Bandwidth, MakeProblemIsDeterministic) {
  const auto p = bandwidth::make_problem(4096);
  const auto q = bandwidth::make_problem(4096);
  EXPECT_EQ(p.bytes, 4096u);
  ASSERT_EQ(p.source.size(), 1024u);
  ASSERT_EQ(p.result.size(), 1024u);
  EXPECT_EQ(p.source, q.source);
  // The pattern is not constant.
  std::size_t distinct = 0;
  for (std::size_t i = 1; i < p.source.size(); ++i) distinct += p.source[i] != p.source[0];
  EXPECT_GT(distinct, 1000u);
}

TEST(Bandwidth, ValidateFailsOnPoisonedResult) {
  const auto p = bandwidth::make_problem(4096);
  const Validation v = bandwidth::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.checked, 1024u);
  EXPECT_GT(v.max_rel_err, 0.99);  // (almost) every word differs
  EXPECT_FALSE(v.where.empty());
}

TEST(Bandwidth, ValidatePassesWhenResultIsSource) {
  auto p = bandwidth::make_problem(4096);
  p.result = p.source;
  const Validation v = bandwidth::validate(p);
  EXPECT_TRUE(v.ok) << v.describe();
  EXPECT_EQ(v.max_rel_err, 0.0);
  EXPECT_EQ(v.tolerance, 0.0);
  EXPECT_EQ(v.checked, 1024u);
  EXPECT_TRUE(v.where.empty());
}

TEST(Bandwidth, OneFlippedWordFails) {
  auto p = bandwidth::make_problem(4096);
  p.result = p.source;
  p.result[700] ^= 1u;
  const Validation v = bandwidth::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_DOUBLE_EQ(v.max_rel_err, 1.0 / 1024.0);
  EXPECT_NE(v.where.find("word 700"), std::string::npos) << v.where;
}

TEST(Bandwidth, ReportsFirstDifferingWord) {
  auto p = bandwidth::make_problem(4096);
  p.result = p.source;
  p.result[900] = ~p.result[900];
  p.result[3] = ~p.result[3];
  const Validation v = bandwidth::validate(p);
  EXPECT_DOUBLE_EQ(v.max_rel_err, 2.0 / 1024.0);
  EXPECT_NE(v.where.find("word 3 "), std::string::npos) << v.where;
}

// 4 MiB: ranges over several threads. Every wrong word is counted, and the
// first is the first overall, also when a later range has more of them.
TEST(Bandwidth, ChecksOverThreadsCountAllAndFindTheFirst) {
  auto p = bandwidth::make_problem(std::size_t(4) << 20);
  ASSERT_EQ(p.source.size(), std::size_t(1) << 20);
  p.result = p.source;
  for (std::size_t i = (std::size_t(3) << 18); i < (std::size_t(3) << 18) + 10; ++i)
    p.result[i] ^= 0x80000000u;
  p.result[(std::size_t(1) << 18) - 1] ^= 1u;  // the last word of the first quarter
  const Validation v = bandwidth::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_DOUBLE_EQ(v.max_rel_err, 11.0 / double(std::size_t(1) << 20));
  EXPECT_NE(v.where.find("word 262143 "), std::string::npos) << v.where;
}

TEST(Bandwidth, CountedBytes) {
  EXPECT_EQ(bandwidth::counted_bytes(bandwidth::Direction::d2d, 100), 200.0);
  EXPECT_EQ(bandwidth::counted_bytes(bandwidth::Direction::h2d, 100), 100.0);
  EXPECT_EQ(bandwidth::counted_bytes(bandwidth::Direction::d2h, 100), 100.0);
}

TEST(Bandwidth, StandardPresetIsPowersOfTwoFrom1KiBTo1GiB) {
  const auto sizes = bandwidth::preset_sizes(SizePreset::standard);
  ASSERT_EQ(sizes.size(), 21u);
  EXPECT_EQ(sizes.front(), 1024u);
  EXPECT_EQ(sizes.back(), std::size_t(1) << 30);
  for (std::size_t i = 0; i < sizes.size(); ++i)
    EXPECT_EQ(sizes[i], std::size_t(1024) << i) << "at " << i;
  EXPECT_EQ(bandwidth::preset_sizes(SizePreset::large), sizes);
}

TEST(Bandwidth, QuickPreset) {
  EXPECT_EQ(bandwidth::preset_sizes(SizePreset::quick),
            (std::vector<std::size_t>{1u << 10, 1u << 16, 1u << 20, 1u << 24}));
}

TEST(Bandwidth, VariantNames) {
  using bandwidth::Direction;
  using bandwidth::HostMemory;
  EXPECT_EQ(bandwidth::variant_name(Direction::h2d, HostMemory::pinned), "h2d-pinned");
  EXPECT_EQ(bandwidth::variant_name(Direction::d2h, HostMemory::pageable), "d2h-pageable");
  EXPECT_EQ(bandwidth::variant_name(Direction::h2d, HostMemory::mapped), "h2d-mapped");
  EXPECT_EQ(bandwidth::variant_name(Direction::d2d, HostMemory::device), "d2d");
}

}  // namespace
}  // namespace gpucmp
