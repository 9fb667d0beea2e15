#include "speckle.h"

#include <algorithm>

#include "../../rng.h"
#include "fixed_math.h"
#include "wall_geometry.h"

namespace gpucmp::heartwall {

namespace {

// A zero-mean, roughly Gaussian integer: the sum of the four 16-bit parts of
// 64 random bits, less their mean (standard deviation about 37800).
std::int32_t gaussian_ish(std::uint64_t bits) {
  std::int32_t sum = 0;
  for (int i = 0; i < 4; ++i) sum += std::int32_t((bits >> (16 * i)) & 0xffff);
  return sum - 2 * 0xffff;
}

// One part (real or imaginary) of the complex field: Gaussian per pixel, then
// smoothed by [1 4 6 4 1] along each row and [1 2 1] along each column
// (edges clamped); at most 64 * 131070 in size.
std::vector<std::int32_t> smoothed_part(Rng& rng, int width, int height) {
  std::vector<std::int32_t> raw(std::size_t(width) * height);
  for (std::int32_t& v : raw) v = gaussian_ish(rng.next());
  const auto at = [&](const std::vector<std::int32_t>& f, int x, int y) {
    return f[std::size_t(std::clamp(y, 0, height - 1)) * width + std::clamp(x, 0, width - 1)];
  };
  std::vector<std::int32_t> rows(raw.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      rows[std::size_t(y) * width + x] = at(raw, x - 2, y) + 4 * at(raw, x - 1, y) +
                                         6 * at(raw, x, y) + 4 * at(raw, x + 1, y) +
                                         at(raw, x + 2, y);
  std::vector<std::int32_t> both(raw.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      both[std::size_t(y) * width + x] =
          at(rows, x, y - 1) + 2 * at(rows, x, y) + at(rows, x, y + 1);
  return both;
}

}  // namespace

SpeckleField::SpeckleField(std::uint64_t seed)
    : width_(kWidth + 2 * kMargin), height_(kHeight + 2 * kMargin) {
  Rng rng(seed ^ 0x6865617274ULL);  // "heart": apart from other users of the seed
  const std::vector<std::int32_t> re = smoothed_part(rng, width_, height_);
  const std::vector<std::int32_t> im = smoothed_part(rng, width_, height_);
  std::vector<std::int64_t> magnitude(re.size());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < re.size(); ++i) {
    magnitude[i] = isqrt(std::int64_t(re[i]) * re[i] + std::int64_t(im[i]) * im[i]);
    sum += magnitude[i];
  }
  // Mean 256; the cap at 1023 (4x the mean) cuts off a Rayleigh tail of 4e-6.
  const auto count = std::int64_t(magnitude.size());
  values_.resize(magnitude.size());
  for (std::size_t i = 0; i < magnitude.size(); ++i)
    values_[i] =
        std::uint16_t(std::min<std::int64_t>(1023, round_div(magnitude[i] * 256 * count, sum)));
}

std::uint64_t frame_key(std::uint64_t seed, int frame) {
  return mix64(seed * kGolden + mix64(std::uint64_t(frame) + 0x6672616d65ULL));  // "frame"
}

}  // namespace gpucmp::heartwall
