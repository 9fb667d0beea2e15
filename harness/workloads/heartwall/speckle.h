// HeartWall's noise: the tissue's speckle, which moves with the tissue from
// frame to frame, and a fresh per-frame noise on top of it, so that a template
// matches the next frame well but never exactly (docs/studies/heartwall.md
// "The input"). Integer arithmetic and Rng's specified engine only: the same
// bytes on every machine.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpucmp::heartwall {

// Speckle intensity over frame 0's pixels and a margin around them, fixed to
// the tissue: a frame looks it up where its pixel's tissue was in frame 0. It
// is the magnitude of a complex Gaussian field (each part a sum of four
// uniforms, smoothed over 5 columns and 3 rows, so the grains are a few
// pixels wide and wider than tall, as ultrasound speckle is): Rayleigh
// distributed, scaled to a mean of 256.
class SpeckleField {
 public:
  static constexpr int kMargin = 32;  // pixels beyond each edge of the frame

  explicit SpeckleField(std::uint64_t seed);

  // Bilinear between the four pixels around (x, y), given in Q4 pixels of
  // frame 0 (the margin outside them is clamped to). Inline: it runs once a
  // pixel and frame.
  int at_q4(std::int32_t x, std::int32_t y) const {
    const std::int32_t fx = std::clamp(x + kMargin * 16, 0, (width_ - 1) * 16 - 1);
    const std::int32_t fy = std::clamp(y + kMargin * 16, 0, (height_ - 1) * 16 - 1);
    const std::int32_t wx = fx & 15;
    const std::int32_t wy = fy & 15;
    const std::uint16_t* p =
        &values_[std::size_t(fy >> 4) * std::size_t(width_) + std::size_t(fx >> 4)];
    const std::int32_t top = p[0] * (16 - wx) + p[1] * wx;
    const std::int32_t bottom = p[width_] * (16 - wx) + p[width_ + 1] * wx;
    return (top * (16 - wy) + bottom * wy + 128) >> 8;
  }

  int width() const { return width_; }
  int height() const { return height_; }
  const std::vector<std::uint16_t>& values() const { return values_; }

 private:
  int width_;
  int height_;
  std::vector<std::uint16_t> values_;  // row-major, width_ x height_
};

// The fresh noise's random bits for one pixel: SplitMix64 (Steele, Lea, Flood
// 2014) at position `index` of the stream that frame_key(seed, frame) starts,
// so that frames and rows can be drawn in any order, on any thread, with the
// same result. Inline: it runs once a pixel and frame.
constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t frame_key(std::uint64_t seed, int frame);

inline std::uint64_t pixel_bits(std::uint64_t key, std::uint64_t index) {
  return mix64(key + (index + 1) * kGolden);
}

}  // namespace gpucmp::heartwall
