#include "fixed_math.h"

#include <algorithm>
#include <cmath>

namespace gpucmp::heartwall {

std::int64_t isqrt(std::int64_t x) {
  if (x <= 0) return 0;
  // The double estimate is within one of the answer; the two loops make it
  // exact, so the result does not depend on how the estimate was rounded.
  // The cap at floor(sqrt(2^63 - 1)) keeps the squares from overflowing.
  constexpr std::int64_t kLargestRoot = 3037000499;
  auto r = std::min(kLargestRoot, std::int64_t(std::sqrt(double(x))));
  while (r * r > x) --r;
  while (r < kLargestRoot && (r + 1) * (r + 1) <= x) ++r;
  return r;
}

namespace {

// pi/2 * 2^30, rounded.
constexpr std::int64_t kHalfPiQ30 = 1686629713;

// sin(x) and cos(x) for 0 <= x <= pi/4 (x in Q30) by Horner's rule on the
// Taylor series: x(1 - x^2/6(1 - x^2/20(1 - x^2/42(1 - x^2/72)))) and
// 1 - x^2/2(1 - x^2/12(1 - x^2/30(1 - x^2/56(1 - x^2/90)))); the first terms
// left out are below 3e-9 there. Every value stays non-negative, below 2^62.
std::int64_t octant_sin(std::int64_t x) {
  const std::int64_t x2 = (x * x) >> 30;
  std::int64_t t = kQ30 - x2 / 72;
  t = kQ30 - ((x2 * t) >> 30) / 42;
  t = kQ30 - ((x2 * t) >> 30) / 20;
  t = kQ30 - ((x2 * t) >> 30) / 6;
  return (x * t) >> 30;
}

std::int64_t octant_cos(std::int64_t x) {
  const std::int64_t x2 = (x * x) >> 30;
  std::int64_t t = kQ30 - x2 / 90;
  t = kQ30 - ((x2 * t) >> 30) / 56;
  t = kQ30 - ((x2 * t) >> 30) / 30;
  t = kQ30 - ((x2 * t) >> 30) / 12;
  return kQ30 - ((x2 * t) >> 30) / 2;
}

}  // namespace

SinCos sin_cos_q30(std::uint32_t turn) {
  const std::uint32_t quadrant = turn >> 30;
  const std::int64_t within = turn & ((1U << 30) - 1);  // Q30 fraction of a quarter turn
  SinCos first;                                         // of the angle within its quadrant
  if (within <= (std::int64_t(1) << 29)) {
    const std::int64_t x = (within * kHalfPiQ30) >> 30;
    first = {octant_sin(x), octant_cos(x)};
  } else {  // the second octant through its complement: sin(x) = cos(pi/2 - x)
    const std::int64_t x = ((kQ30 - within) * kHalfPiQ30) >> 30;
    first = {octant_cos(x), octant_sin(x)};
  }
  switch (quadrant) {
    case 0:
      return first;
    case 1:
      return {first.cos, -first.sin};
    case 2:
      return {-first.sin, -first.cos};
    default:
      return {-first.cos, first.sin};
  }
}

std::uint32_t turn_fraction(std::int64_t k, std::int64_t n) {
  const std::int64_t wrapped = ((k % n) + n) % n;  // in [0, n): the same angle
  return std::uint32_t((std::uint64_t(wrapped) << 32) / std::uint64_t(n));
}

std::int64_t round_shift(std::int64_t x, int shift) {
  const std::int64_t half = std::int64_t(1) << (shift - 1);
  return x >= 0 ? (x + half) >> shift : -((-x + half) >> shift);
}

std::int64_t round_div(std::int64_t a, std::int64_t b) {
  return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

}  // namespace gpucmp::heartwall
