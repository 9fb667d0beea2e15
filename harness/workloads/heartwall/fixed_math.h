// Integer math for the HeartWall input generator, so that a seed gives the same
// bytes on every machine and compiler. Floating point would give that only
// with the same libm (std::sin and std::cos differ between C libraries in the
// last bits) and without FMA contraction (GCC contracts a*b+c by default
// wherever the target has FMA), which no flag of ours fixes; a last-bit
// difference can flip a pixel's rounding. So the geometry runs in fixed point.
#pragma once
#include <cstdint>

namespace gpucmp::heartwall {

constexpr std::int64_t kQ30 = std::int64_t(1) << 30;  // 1.0 in the trigonometry's Q30

// floor(sqrt(x)) exactly; 0 for x <= 0.
std::int64_t isqrt(std::int64_t x);

// sin and cos of `turn` / 2^32 turns, times 2^30: Taylor polynomials on the
// first octant in integer arithmetic, within 4 units (4e-9) of the exact
// values (checked against std::sin in the tests).
struct SinCos {
  std::int64_t sin = 0;
  std::int64_t cos = 0;
};
SinCos sin_cos_q30(std::uint32_t turn);

// `k` / `n` of a turn as sin_cos_q30's argument (k may be any integer).
std::uint32_t turn_fraction(std::int64_t k, std::int64_t n);

// x / 2^shift rounded to nearest, halves away from zero: the same in both
// signs (a right shift would round negative values down).
std::int64_t round_shift(std::int64_t x, int shift);

// a / b rounded to nearest, halves away from zero (b > 0).
std::int64_t round_div(std::int64_t a, std::int64_t b);

}  // namespace gpucmp::heartwall
