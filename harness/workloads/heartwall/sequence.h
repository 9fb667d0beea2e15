// HeartWall's input: a generated ultrasound-like sequence in place of
// Rodinia 3.1's test.avi (609 x 590 pixels, 8-bit, 104 frames), which public
// copies of Rodinia do not carry (docs/studies/heartwall.md "The input").
// Two closed walls, the endocardium inside the epicardium, beat and sway
// through the frames under speckle; the sequence carries Rodinia's 20 + 31
// sample points on them in frame 0 and the truth of where those points'
// tissue is in every frame, to check tracking against.
#pragma once
#include <cstdint>
#include <vector>

#include "wall_geometry.h"

namespace gpucmp::heartwall {

constexpr int kRodiniaFrames = 104;  // test.avi's frames

struct Sequence {
  int width = kWidth;
  int height = kHeight;
  int frames = 0;
  std::uint64_t seed = 0;
  // frames x height x width, 8-bit: frame-major, rows top-down, row-major.
  std::vector<std::uint8_t> pixels;
  // Frame 0's sample points, in Rodinia's order (from the right, clockwise on
  // screen): kEndoPoints on the endocardium, kEpiPoints on the epicardium.
  std::vector<Point> endo;
  std::vector<Point> epi;
  // frames x (endo, then epi): tissue_position() of every sample point.
  std::vector<PointF> truths;

  int points() const { return int(endo.size() + epi.size()); }
  // Point i of all of them: the endocardium's first, as Rodinia numbers them.
  Point point(int i) const;
  // Where point i's tissue is in frame `frame` (truth(0, i) is point(i), to
  // within 1/16 px).
  PointF truth(int frame, int i) const;
  const std::uint8_t* frame(int f) const;
  std::uint8_t at(int f, int row, int col) const;
};

// `frames` frames (>= 1; UsageError otherwise) drawn from `seed`: the same
// bytes for the same arguments on every machine. The walls, their motion and
// the sample points are the same for every seed; the speckle and the noise
// are the seed's. Frames are drawn in parallel (parallel_for.h); 104 take
// 0.45 s on one core of the 2-core AMD EPYC VM this was written on, 0.35 s
// on both.
Sequence make_sequence(int frames, std::uint64_t seed);

}  // namespace gpucmp::heartwall
