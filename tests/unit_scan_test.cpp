// The scan workload's host side: tiles, the summation depth behind
// the float tolerance, and its validation, which must find the first wrong
// int32 prefix and a float prefix outside its bound while passing a correct
// order's prefixes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "workloads/agpu/scan.h"

namespace gpucmp::scan {
namespace {

std::uint32_t bits(float x) {
  std::uint32_t w;
  std::memcpy(&w, &x, sizeof w);
  return w;
}
float value(std::uint32_t w) {
  float x;
  std::memcpy(&x, &w, sizeof x);
  return x;
}

TEST(Scan, TilesAndDepth) {
  EXPECT_EQ(tiles(std::size_t(1) << 28, 8), std::size_t(1) << 17);
  EXPECT_EQ(tiles(1000, 1), 4u);
  // alpha 8 at 2^28: 2^17 tile sums, scanned in 16 tiles of 32 x 256:
  // 8 + 8 + (16 + 32 + 8 + 1) + 8 + 8 + 2.
  EXPECT_EQ(summation_depth({"alpha", 8}, std::size_t(1) << 28), 91);
  // lookback, alpha 8 at 2^28: a prefix may chain through all 2^17 tile sums.
  EXPECT_EQ(summation_depth({"lookback", 8}, std::size_t(1) << 28), 8 + 8 + (1 << 17) + 8 + 8 + 1);
  EXPECT_EQ(lookback_status_bytes(1000, 1), 5u * 8);
  // Kernels are compiled (unrolled) for powers of two; others read alpha at run time.
  EXPECT_EQ(compiled_alpha(16), 16);
  EXPECT_EQ(compiled_alpha(1), 1);
  EXPECT_EQ(compiled_alpha(12), 0);
  EXPECT_EQ(summation_depth({"cub", 0}, 1 << 20), 1024 + 64);
  // onepass, alpha 16 at 2^28: 2^16 tiles, each link at most 7 deep.
  EXPECT_EQ(summation_depth({"onepass", 16}, std::size_t(1) << 28),
            16 + 29 + 7 * (1 << 16) + (1 << 11) + 3);
  // onepass is compiled for whole 16-byte vectors a thread; it keeps lookback's status words.
  EXPECT_TRUE(onepass_has_alpha(4) && onepass_has_alpha(32));
  EXPECT_FALSE(onepass_has_alpha(1) || onepass_has_alpha(2) || onepass_has_alpha(12));
  EXPECT_TRUE(has_tile_status({"onepass", 8}) && has_tile_status({"lookback", 8}));
  EXPECT_FALSE(has_tile_status({"alpha", 8}));
}

TEST(Scan, Int32PrefixesAreCheckedWordForWord) {
  Problem p = make_problem(4096, Type::int32);
  std::uint32_t running = 0;
  for (std::size_t i = 0; i < p.n; ++i) p.out[i] = running += p.words[i];
  EXPECT_TRUE(validate(p, {"alpha", 4}).ok);
  p.out[1234] += 1;
  const Validation v = validate(p, {"alpha", 4});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("out[1234]"), std::string::npos) << v.where;
}

TEST(Scan, Affine16PrefixesAreTheOrderedProductsWordForWord) {
  Problem p = make_problem(4096, Type::affine16);
  std::uint32_t running = agpu::kAffineIdentity;
  for (std::size_t i = 0; i < p.n; ++i)
    p.out[i] = running = agpu::affine_product(running, p.words[i]);
  EXPECT_TRUE(validate(p, {"lookback", 8}).ok);
  // The products in the reversed order (each word on the left) are wrong
  // from the second word on.
  running = agpu::kAffineIdentity;
  for (std::size_t i = 0; i < p.n; ++i)
    p.out[i] = running = agpu::affine_product(p.words[i], running);
  const Validation v = validate(p, {"alpha", 8});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("out[1]: got"), std::string::npos) << v.where;
  EXPECT_NE(v.where.find("affine16"), std::string::npos) << v.where;
}

TEST(Scan, FloatPrefixesWithinTheBoundPassAndALostWordFails) {
  Problem p = make_problem(1 << 14, Type::f32);
  // The exact prefixes rounded once to float: within any bound (one rounding).
  double exact = 0;
  for (std::size_t i = 0; i < p.n; ++i) p.out[i] = bits(float(exact += value(p.words[i])));
  for (const Variant& v : {Variant{"alpha", 32}, Variant{"lookback", 1}}) {
    EXPECT_TRUE(validate(p, v).ok) << validate(p, v).describe();
    const std::uint32_t kept = p.out[9000];
    p.out[9000] = bits(value(kept) - 0.75f);  // a word of about 0.75 lost there
    EXPECT_FALSE(validate(p, v).ok) << v.name;
    p.out[9000] = kept;
  }
}

// Large enough for the checks' threads (one range a 2^16 words at least):
// the first wrong word is found whichever range holds it, and the float
// check names the worst prefix with the in-order sum as its want.
TEST(Scan, ChecksOverThreadsFindTheFirstWrongAndTheWorst) {
  const std::size_t n = std::size_t(1) << 19;
  Problem q = make_problem(n, Type::int32);
  std::uint32_t running = 0;
  for (std::size_t i = 0; i < n; ++i) q.out[i] = running += q.words[i];
  EXPECT_TRUE(validate(q, {"alpha", 8}).ok);
  q.out[n - 5] += 1;
  q.out[n / 2 + 7] += 1;
  Validation v = validate(q, {"alpha", 8});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("out[" + std::to_string(n / 2 + 7) + "]"), std::string::npos) << v.where;
  q.out[3] += 1;
  v = validate(q, {"alpha", 8});
  EXPECT_NE(v.where.find("out[3]"), std::string::npos) << v.where;

  Problem p = make_problem(n, Type::f32);
  double exact = 0;
  for (std::size_t i = 0; i < n; ++i) p.out[i] = bits(float(exact += value(p.words[i])));
  EXPECT_TRUE(validate(p, {"alpha", 32}).ok) << validate(p, {"alpha", 32}).describe();
  const std::size_t at = n - 1000;
  double want = 0;
  for (std::size_t i = 0; i <= at; ++i) want += value(p.words[i]);
  p.out[at] = bits(float(want) + 4.0f);
  p.out[at / 3] = bits(value(p.out[at / 3]) + 0.5f);  // smaller: not the worst
  v = validate(p, {"alpha", 32});
  EXPECT_FALSE(v.ok);
  char expected[96];
  std::snprintf(expected, sizeof expected, "out[%zu]: got %.9g, want %.9g", at,
                double(value(p.out[at])), want);
  EXPECT_NE(v.where.find(expected), std::string::npos) << v.where << " / " << expected;
}

}  // namespace
}  // namespace gpucmp::scan
