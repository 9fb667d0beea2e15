#include "frame_render.h"

#include <algorithm>
#include <array>
#include <memory>

#include "fixed_math.h"
#include "wall_geometry.h"

namespace gpucmp::heartwall {

namespace {

// Reflectivity in Q8 (256: the epicardium's peak), and the gain that makes
// reflectivity 1 a pixel value of 165 on average over the speckle and noise
// (both have mean 1). On average over the noise: the endocardium's centre
// line 168, the epicardium's 203, the myocardium 46, the outer tissue 33, the
// blood pool 12 (with the noise floor's 3.5).
constexpr std::int32_t kBlood = 13;
constexpr std::int32_t kMyocardium = 72;
constexpr std::int32_t kOutside = 46;
constexpr std::int32_t kEndoPeak = 218;
constexpr std::int32_t kEpiPeak = 256;
constexpr std::int32_t kGain = 165;

// Reflectivity = inner(distance to the endocardium) + outer(distance to the
// epicardium), each tabulated by signed distance d in Q4 (negative inside) for
// |d| <= kReach; beyond it they are flat. A wall is a band of 256 (1 -
// (d/h)^2)^2 for |d| < h, a step between regions a smoothstep from -s to +s.
constexpr std::int32_t kReach = 4 * kSub;
constexpr std::int64_t kBandHalf = 3 * kSub;  // h
constexpr std::int64_t kStepHalf = 2 * kSub;  // s

using Profile = std::array<std::int32_t, 2 * kReach + 1>;
struct Profiles {
  Profile inner{};  // the blood pool, the step to the myocardium, the endocardium's band
  Profile outer{};  // the step from the myocardium to outer tissue, the epicardium's band
};

const Profiles& profiles() {
  static const Profiles p = [] {
    Profiles t;
    const std::int64_t h2 = kBandHalf * kBandHalf;
    const std::int64_t w = 2 * kStepHalf;
    for (std::int64_t d = -kReach; d <= kReach; ++d) {
      const std::int64_t s = std::max<std::int64_t>(0, h2 - d * d);
      const std::int64_t u = std::clamp<std::int64_t>(d + kStepHalf, 0, w);
      const std::int64_t band = round_div(256 * s * s, h2 * h2);
      const std::int64_t step = round_div(256 * (3 * u * u * w - 2 * u * u * u), w * w * w);
      const auto i = std::size_t(d + kReach);
      t.inner[i] =
          std::int32_t(kBlood + round_div((kMyocardium - kBlood) * step + kEndoPeak * band, 256));
      t.outer[i] = std::int32_t(round_div((kOutside - kMyocardium) * step + kEpiPeak * band, 256));
    }
    return t;
  }();
  return p;
}

std::int32_t lookup(const Profile& table, std::int32_t d) {
  const std::int32_t i = std::clamp(d, -kReach, kReach) + kReach;
  return table[std::size_t(i)];
}

// The geometry at the grid's nodes (every kCell pixels, one node past each
// edge), each quantity biased by kBias so that the interpolation's sums and
// shifts see non-negative numbers only (and stay below 2^31).
constexpr std::int32_t kBias = 1 << 20;
constexpr int kNodesX = (kWidth - 1) / kCell + 2;
constexpr int kNodesY = (kHeight - 1) / kCell + 2;
constexpr int kCellShift2 = 6;  // kCell^2 = 2^6: a bilinear sum's scale
static_assert(kCell * kCell == 1 << kCellShift2, "kCellShift2 must match kCell");
enum Quantity { kToEndo, kToEpi, kFrame0X, kFrame0Y, kQuantities };

using NodeGrid = std::array<std::array<std::int32_t, std::size_t(kNodesX) * kNodesY>, kQuantities>;

void fill_node_grid(int frame, NodeGrid& grid) {
  const FrameGeometry g = frame_geometry(frame);
  const FrameGeometry g0 = frame_geometry(0);
  for (int jy = 0; jy < kNodesY; ++jy)
    for (int jx = 0; jx < kNodesX; ++jx) {
      const Polar p =
          polar(std::int64_t(jx) * kCell * kSub - g.cx, std::int64_t(jy) * kCell * kSub - g.cy);
      const Radii now = radii(g, p.dir);
      const std::int64_t r0 = radial_map(p.length, now, radii(g0, p.dir));
      const std::size_t i = std::size_t(jy) * kNodesX + jx;
      grid[kToEndo][i] = std::int32_t(kBias + p.length - now.endo);
      grid[kToEpi][i] = std::int32_t(kBias + p.length - now.epi);
      grid[kFrame0X][i] = std::int32_t(kBias + g0.cx + round_shift(p.dir.x * r0, 14));
      grid[kFrame0Y][i] = std::int32_t(kBias + g0.cy + round_shift(p.dir.y * r0, 14));
    }
}

// One pixel from its distances to the walls (Q4), its frame-0 position's
// speckle and its random bits.
std::uint8_t pixel(const Profiles& prof, std::int32_t to_endo, std::int32_t to_epi,
                   std::int32_t grain, std::uint64_t bits) {
  const std::int32_t reflectivity = lookup(prof.inner, to_endo) + lookup(prof.outer, to_epi);
  const auto fresh = std::int32_t(
      ((bits & 0xff) + ((bits >> 8) & 0xff) + ((bits >> 16) & 0xff) + ((bits >> 24) & 0xff)) >>
      1);  // 0..510, mean 255: 1.0 in Q8
  const auto floor = std::int32_t((bits >> 32) & 7);
  // Below 2^31 throughout: reflectivity < 2^9, grain < 2^10, fresh < 2^9.
  const std::int32_t value = ((((reflectivity * grain * fresh) >> 8) * kGain) >> 16) + floor;
  return std::uint8_t(std::min(255, value));
}

}  // namespace

void render_frame(int frame, const SpeckleField& speckle, std::uint64_t seed, std::uint8_t* out) {
  const Profiles& prof = profiles();
  auto grid = std::make_unique<NodeGrid>();
  fill_node_grid(frame, *grid);
  const std::uint64_t key = frame_key(seed, frame);
  // The grid interpolated to one pixel row: first down the columns of nodes
  // (times kCell), then along the row (whole cells: past the last pixel).
  std::array<std::array<std::int32_t, kNodesX>, kQuantities> nodes_row{};
  std::array<std::array<std::int32_t, std::size_t(kNodesX - 1) * kCell>, kQuantities> row{};
  for (int y = 0; y < kHeight; ++y) {
    const std::int32_t wy = y % kCell;
    const std::size_t above = std::size_t(y / kCell) * kNodesX;
    for (int q = 0; q < kQuantities; ++q) {
      for (std::size_t j = 0; j < kNodesX; ++j)
        nodes_row[q][j] =
            (*grid)[q][above + j] * (kCell - wy) + (*grid)[q][above + kNodesX + j] * wy;
      for (std::size_t j = 0; j + 1 < kNodesX; ++j) {
        const std::int32_t left = nodes_row[q][j];
        const std::int32_t right = nodes_row[q][j + 1];
        for (std::int32_t wx = 0; wx < kCell; ++wx)
          row[q][j * kCell + std::size_t(wx)] =
              ((left * (kCell - wx) + right * wx + kCell * kCell / 2) >> kCellShift2) - kBias;
      }
    }
    std::uint8_t* line = out + std::size_t(y) * kWidth;
    const std::uint64_t first = std::uint64_t(y) * kWidth;
    for (std::size_t x = 0; x < std::size_t(kWidth); ++x)
      line[x] =
          pixel(prof, row[kToEndo][x], row[kToEpi][x],
                speckle.at_q4(row[kFrame0X][x], row[kFrame0Y][x]), pixel_bits(key, first + x));
  }
}

}  // namespace gpucmp::heartwall
