// HeartWall's generated heart: where its two walls are in every frame, where
// the tissue between them moves, and the sample points on them that Rodinia's
// tracker starts from (docs/studies/heartwall.md "The input").
//
// The endocardium (inner wall, around the blood pool) and the epicardium (outer
// wall) share one centre. Each is a tilted ellipse, stretched a little
// downward (an egg), whose semi-axes shrink with the heartbeat; the centre
// sways sideways and moves down in systole. Tissue moves along rays from the
// centre only, so a sample point's tissue stays on its ray: radial_map says
// where along it. All of it is integer arithmetic (fixed_math.h): positions in
// 1/16 pixel (Q4), unit vectors in Q14.
#pragma once
#include <cstdint>
#include <vector>

namespace gpucmp::heartwall {

// A frame of Rodinia's test.avi: 609 x 590 pixels (columns x rows).
constexpr int kWidth = 609;
constexpr int kHeight = 590;
constexpr int kEndoPoints = 20;  // Rodinia's ENDO_POINTS and EPI_POINTS
constexpr int kEpiPoints = 31;
constexpr int kBeatFrames = 26;  // one heartbeat: 4 in Rodinia's 104 frames

// The most a wall moves from one frame to the next, in pixels: the
// endocardium's contraction (11 to 12 px over half a beat, at most pi*12/26 =
// 1.45 px a frame) plus the centre's motion (0.36 + 0.18 px); 1.92 measured,
// the rest is room to spare. Rodinia's tracker looks for a point within about
// 4 px of where it was (its maxMove of 10 is a 10 x 10 box).
constexpr double kMaxStepPixels = 2.5;

constexpr std::int64_t kSub = 16;                      // Q4: sub-pixel units per pixel
constexpr std::int64_t kUnit = std::int64_t(1) << 14;  // Q14: a unit vector's length

// A pixel: row 0 at the top, column 0 at the left, 0-based (Rodinia's input.txt
// counts from 1: rodinia_files.h adds it).
struct Point {
  int row = 0;
  int col = 0;
  bool operator==(const Point& o) const { return row == o.row && col == o.col; }
};

// A position between pixels, in pixels (multiples of 1/16).
struct PointF {
  double row = 0;
  double col = 0;
};

// A unit vector in Q14: x along the columns, y along the rows (down).
struct Dir {
  std::int64_t x = kUnit;
  std::int64_t y = 0;
};

// (dx, dy) in Q4 as a direction and a length (Q4); (0, 0) gives direction +x.
struct Polar {
  Dir dir;
  std::int64_t length = 0;
};
Polar polar(std::int64_t dx, std::int64_t dy);

// One wall in one frame: semi-axes in Q4 along the tilted axes u (down-right)
// and v (down-left), and the egg factor e in Q14: the ellipse's radius in
// direction n is multiplied by 1 + e * n.y.
struct WallShape {
  std::int64_t a = 0;
  std::int64_t b = 0;
  std::int64_t egg = 0;
};

// The heart in one frame: the centre (Q4; cx a column, cy a row) and both walls.
struct FrameGeometry {
  std::int64_t cx = 0;
  std::int64_t cy = 0;
  WallShape endo;
  WallShape epi;
};
FrameGeometry frame_geometry(int frame);

// The wall's distance from the centre in direction n, in Q4.
std::int64_t wall_radius(const WallShape& wall, Dir n);

// Both walls' distances from the centre in one direction (Q4).
struct Radii {
  std::int64_t endo = 0;
  std::int64_t epi = 0;
};
Radii radii(const FrameGeometry& g, Dir n);

// The tissue's radial motion: the distance from the centre (Q4) of the tissue
// that is at distance r along a ray in the heart `from`, in the heart `to`.
// The blood pool scales with the endocardium, the myocardium is stretched
// linearly between the walls, and what lies outside moves with the epicardium.
// radial_map(., to, from) is its inverse, up to rounding.
std::int64_t radial_map(std::int64_t r, Radii from, Radii to);

// Frame 0's sample points: `count` directions evenly spaced from +x (right)
// turning towards +y (down; clockwise on screen, as Rodinia's points run),
// each on the wall's centre line rounded to the nearest pixel.
std::vector<Point> endo_sample_points();
std::vector<Point> epi_sample_points();

// Where the tissue under pixel p of frame 0 is in `frame`: the truth that
// tracking a sample point is checked against. It stays on p's ray from the
// (moving) centre, within a pixel of the wall's centre line when p is a
// sample point.
PointF tissue_position(Point p, int frame);

}  // namespace gpucmp::heartwall
