#include "wall_geometry.h"

#include "fixed_math.h"

namespace gpucmp::heartwall {

namespace {

// The heart at end-diastole (frame 0), in pixels: centred low in the frame and
// a little right of its middle column, as Rodinia's input.txt places it, with
// the epicardium reaching lower than the endocardium. Our own numbers, not
// Rodinia's points.
constexpr std::int64_t kCentreCol = 310;
constexpr std::int64_t kCentreRow = 372;

// One wall: semi-axes along u and v at end-diastole, by how much each shrinks
// at end-systole (px), and the egg factor in thousandths.
struct WallPlan {
  std::int64_t a, b;
  std::int64_t shrink_a, shrink_b;
  std::int64_t egg_permille;
};
// The endocardium contracts about 12 % and the epicardium about 4 %, so the
// myocardium between them (34 to 61 px round the heart) thickens in systole,
// as it does.
constexpr WallPlan kEndo{84, 104, 11, 12, 20};
constexpr WallPlan kEpi{134, 146, 5, 5, 70};

// The centre's motion: down by kSystoleDropPx in systole and a sideways sway
// of kSwayPx with a period that is no multiple of the beat's.
constexpr std::int64_t kSystoleDropPx = 3;
constexpr std::int64_t kSwayPx = 2;
constexpr std::int64_t kSwayFrames = 70;

// The tilt of the ellipses' axes: u = (12 x + 5 y) / 13, v = (-5 x + 12 y) / 13
// (a Pythagorean triple: about 23 degrees, exact in integers).
constexpr std::int64_t kTiltCos = 12;
constexpr std::int64_t kTiltSin = 5;
constexpr std::int64_t kTiltHyp = 13;

WallShape shape_at(const WallPlan& w, std::int64_t squeeze_q14) {
  return {w.a * kSub - round_shift(w.shrink_a * kSub * squeeze_q14, 14),
          w.b * kSub - round_shift(w.shrink_b * kSub * squeeze_q14, 14),
          w.egg_permille * kUnit / 1000};
}

std::vector<Point> sample_points(const WallShape& wall, int count) {
  const FrameGeometry g = frame_geometry(0);
  std::vector<Point> points;
  for (int k = 0; k < count; ++k) {
    const SinCos t = sin_cos_q30(turn_fraction(k, count));
    const Dir n{round_shift(t.cos, 16), round_shift(t.sin, 16)};
    const std::int64_t r = wall_radius(wall, n);
    const std::int64_t x = g.cx + round_shift(n.x * r, 14);
    const std::int64_t y = g.cy + round_shift(n.y * r, 14);
    points.push_back({int(round_div(y, kSub)), int(round_div(x, kSub))});
  }
  return points;
}

}  // namespace

Polar polar(std::int64_t dx, std::int64_t dy) {
  // The length in Q12 first (8 more bits than Q4) so that the direction is
  // good to about 1e-5 even a few pixels from the centre.
  const std::int64_t length_q12 = isqrt((dx * dx + dy * dy) * 65536);
  if (length_q12 == 0) return {};
  return {{round_div(dx * (std::int64_t(1) << 22), length_q12),
           round_div(dy * (std::int64_t(1) << 22), length_q12)},
          round_shift(length_q12, 8)};
}

FrameGeometry frame_geometry(int frame) {
  // squeeze: (1 - cos) / 2 of the beat's phase in Q14, 0 at end-diastole
  // (frames 0, 26, ...) and 1 at end-systole (frames 13, 39, ...).
  const SinCos beat = sin_cos_q30(turn_fraction(frame, kBeatFrames));
  const std::int64_t squeeze = (kQ30 - beat.cos) >> 17;
  const SinCos sway = sin_cos_q30(turn_fraction(frame, kSwayFrames));
  FrameGeometry g;
  g.cx = kCentreCol * kSub + round_shift(kSwayPx * kSub * sway.sin, 30);
  g.cy = kCentreRow * kSub + round_shift(kSystoleDropPx * kSub * squeeze, 14);
  g.endo = shape_at(kEndo, squeeze);
  g.epi = shape_at(kEpi, squeeze);
  return g;
}

std::int64_t wall_radius(const WallShape& wall, Dir n) {
  // The ellipse's radius in direction (u, v) is a b / sqrt(u^2 b^2 + v^2 a^2):
  // Q4 * Q4 * Q14 / sqrt(Q14^2 Q4^2) = Q4. Below 2^53 throughout.
  const std::int64_t u = round_div(kTiltCos * n.x + kTiltSin * n.y, kTiltHyp);
  const std::int64_t v = round_div(-kTiltSin * n.x + kTiltCos * n.y, kTiltHyp);
  const std::int64_t den = isqrt(u * u * wall.b * wall.b + v * v * wall.a * wall.a);
  const std::int64_t ellipse = round_div(wall.a * wall.b * kUnit, den);
  return round_div(ellipse * (kUnit * kUnit + wall.egg * n.y), kUnit * kUnit);
}

Radii radii(const FrameGeometry& g, Dir n) {
  return {wall_radius(g.endo, n), wall_radius(g.epi, n)};
}

std::int64_t radial_map(std::int64_t r, Radii from, Radii to) {
  if (r <= from.endo) return round_div(r * to.endo, from.endo);
  if (r <= from.epi)
    return to.endo + round_div((r - from.endo) * (to.epi - to.endo), from.epi - from.endo);
  return r - from.epi + to.epi;
}

std::vector<Point> endo_sample_points() {
  return sample_points(frame_geometry(0).endo, kEndoPoints);
}

std::vector<Point> epi_sample_points() { return sample_points(frame_geometry(0).epi, kEpiPoints); }

PointF tissue_position(Point p, int frame) {
  const FrameGeometry g0 = frame_geometry(0);
  const FrameGeometry g = frame_geometry(frame);
  const Polar at0 = polar(p.col * kSub - g0.cx, p.row * kSub - g0.cy);
  const std::int64_t r = radial_map(at0.length, radii(g0, at0.dir), radii(g, at0.dir));
  const std::int64_t x = g.cx + round_shift(at0.dir.x * r, 14);
  const std::int64_t y = g.cy + round_shift(at0.dir.y * r, 14);
  return {double(y) / kSub, double(x) / kSub};
}

}  // namespace gpucmp::heartwall
