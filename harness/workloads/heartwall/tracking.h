// HeartWall's tracking, the CPU reference the CUDA and OpenCL kernels are
// validated against: Rodinia 3.1's heartwall (cuda/heartwall/kernel.cu,
// kernel(); the OpenCL kernel is the same algorithm) in double precision,
// one point at a time (docs/studies/heartwall.md "The tracking (CPU
// reference)"). Per point:
//   - frame 0: the position is the input point, the anchor too, and the
//     template the 51 x 51 patch of frame 0 around it;
//   - each later frame f: the template is correlated (track_ncc.h) with the
//     81 x 81 area around the anchor; of the displacements -5 to +4 rows and
//     columns from the position in frame f - 1 (Rodinia's maxMove = 10 box,
//     placed as its mask convolution places it), the one of largest |value|
//     is the new position, the first in column-major order on a tie;
//   - when f is a multiple of 10 (10, 20, ...), after that search, the anchor
//     moves to the new position and the template becomes 0.87 x itself +
//     0.13 x frame f's patch around it: frame f + 1 is the first to use them.
//
// Validation of the GPU's FP32 positions against these: equal, point by point
// and frame by frame, up to the first frame where they differ; that frame's
// peak must be a near tie here (margin < kTieTolerance x peak), and the point
// is not compared further (each later position depends on that one). Why a
// tie tolerance and no other: the positions are whole pixels picked by an
// argmax, so FP32 rounding changes one only where two values in the box lie
// within it. FP32 sums of 2601 products of pixels up to 255 (about 1e8), less
// a mean term of nearly the same size, leave the correlation with a relative
// error of the order of 1e-5 (an estimate; every heartwall row checks it:
// track_check.h's check_correlations); 1e-4 is ten times that. On seed 1's
// first 16 frames no peak leads by less
// than 2.5e-4 (10 of the 765 by less than 1e-3), so there every position must
// match.
#pragma once
#include <cstddef>
#include <vector>

#include "sequence.h"
#include "track_ncc.h"

namespace gpucmp::heartwall {

constexpr int kMaxMove = 10;                      // Rodinia's maxMove: the box's side
constexpr int kBoxLow = -kMaxMove / 2;            // -5: mask_conv_ioffset = 5
constexpr int kBoxHigh = kBoxLow + kMaxMove - 1;  // +4
constexpr double kAlpha = 0.87;                   // the template's weight in an update
constexpr int kUpdateEvery = 10;                  // frames between template updates
constexpr double kTieTolerance = 1e-4;            // relative; see above

// Whether Rodinia updates the anchor and template after the search in `frame`.
constexpr bool updates_template(int frame) { return frame != 0 && frame % kUpdateEvery == 0; }

// One correlation of the maxMove box: dr rows and dc columns from the
// anchor of its search.
struct BoxValue {
  int dr = 0;
  int dc = 0;
  double ncc = 0;  // signed, as SearchArea::ncc gives it
};

// One point's tracker: frame 0 at construction, then one frame per step().
class PointTracker {
 public:
  PointTracker(const Sequence& seq, Point start);

  // Tracks the next frame (UsageError past the sequence's last).
  void step();

  int frame() const { return frame_; }
  Point position() const { return position_; }
  Point anchor() const { return anchor_; }  // the next search's centre
  const Template& templ() const { return templ_; }
  // The last search's |correlation| at the new position, and its lead over
  // the next largest in the box (both 0 in frame 0).
  double peak() const { return peak_; }
  double margin() const { return margin_; }
  // The last search's box, every value it computed (empty in frame 0).
  const std::vector<BoxValue>& box() const { return box_; }

 private:
  const Sequence* seq_;
  int frame_ = 0;
  Point position_;
  Point anchor_;
  Template templ_;
  TemplateStats stats_;
  double peak_ = 0;
  double margin_ = 0;
  std::vector<BoxValue> box_;
};

// Every point through frames 0 to frames - 1, frame-major: [frame * points +
// point]. Positions are pixels counted from 0 (Rodinia's less one).
struct TrackResult {
  int frames = 0;
  int points = 0;
  std::vector<int> row, col;                // tracked positions
  std::vector<int> anchor_row, anchor_col;  // the anchor each frame's search used
  std::vector<double> peak, margin;         // PointTracker's, per frame
  // Per point, the box of the last frame's search (PointTracker::box()): what
  // the kernels' FP32 correlations are compared with.
  std::vector<std::vector<BoxValue>> last_box;

  std::size_t index(int frame, int point) const {
    return std::size_t(frame) * std::size_t(points) + std::size_t(point);
  }
  Point at(int frame, int point) const {
    return {row[index(frame, point)], col[index(frame, point)]};
  }
};

// Tracks all of seq's points through its first `frames` frames (1 to
// seq.frames; UsageError otherwise), points in parallel (parallel_for.h): the
// same result on any number of threads. 16 frames take 0.27 s on the 2-core
// AMD EPYC VM this was written on (both cores; unit test).
TrackResult track(const Sequence& seq, int frames);

}  // namespace gpucmp::heartwall
