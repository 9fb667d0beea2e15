// heartwall: Rodinia 3.1's HeartWall tracking as a paired workload
// (docs/studies/heartwall.md, "The kernels"). The sequence (sequence.h, seed
// 1) is uploaded one frame at a time and each upload is followed by one
// launch over the 51 points, one block / work-group of kThreads per point, as
// Rodinia's loop over frame_no does: frame 0 cuts each point's template;
// every later frame correlates the template with the 81 x 81 search area at
// all 131 x 131 overlaps (the convolution), normalizes each by the area's
// local sums (from summed-area tables, Rodinia's cumulative sums), masks the
// maxMove box around the last position, takes the peak and, every 10 frames,
// moves the anchor and blends the template. A row tracks frames 0 to
// frames - 1 in one launch of the harness (frames uploads and kernels).
//
// The per-point state the launches carry from frame to frame (records.json's
// hwpoint: position, anchor, template; 2605 words) is kept in the row's layout
// (layout:aos|soa): AoSoA's tiles of 32 records do not divide 51 points, so
// it is not offered. Every row is validated against the CPU reference
// (tracking.h) by track_check.h's rule: a mismatch fails the row.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../../options.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"
#include "../layout/layouts.h"
#include "tracking.h"

namespace gpucmp::heartwall {

constexpr int kThreads = 256;                      // Rodinia's NUMBER_THREADS: one block per point
constexpr int kCorrSide = 2 * kCorrRadius + 1;     // 131: the correlation map (conv_rows)
constexpr int kCorrElems = kCorrSide * kCorrSide;  // 17161
constexpr int kTableSide = kSearchSide + 1;        // 82: a summed-area table's side
constexpr int kTableElems = kTableSide * kTableSide;  // 6724
constexpr int kStateWords = 4 + kTemplateElems;       // hwpoint: row, col, anchor, template
constexpr float kAlphaF = 0.87f;                      // kAlpha as the kernels use it
constexpr std::uint64_t kSeed = 1;                    // the sequence the study checked
constexpr int kMinFrames = 2;                         // frame 0 and one search
constexpr int kDefaultTile = layout::kDefaultTile;

struct Problem {
  int frames = 0;  // frames 0 .. frames - 1 are tracked
  int points = 0;  // 51
  // frames x kHeight x kWidth, 0 to 255 as floats (Rodinia's get_frame
  // gives float frames), rows top-down, row-major: each frame is uploaded
  // right before its kernel.
  std::vector<float> pixels;
  std::vector<int> start;    // points x (row, col): frame 0's points
  TrackResult ref;           // the CPU reference over the same frames
  std::vector<int> track;    // the device's: frames x points x (row, col)
  std::vector<float> state;  // the device's final state, converted to AoS
  // The device's correlation maps of the last frame (points x kCorrElems,
  // track_check.h's DeviceMaps): the kernels' scratch, downloaded.
  std::vector<float> corr;
};

Problem make_problem(int frames);

std::size_t frame_elems();  // kWidth x kHeight

// The device's track (track_check.h) and its final state: every position and
// anchor equal to the reference's, up to near ties (measure: pixels); then the
// last frame's box correlations within kTieTolerance of the peak (measure:
// their error relative to the peak, what max_rel_err reports when the rest
// holds).
Validation validate(const Problem& p);

// Multiply-adds one launch's convolutions take (the overlap of template and
// area summed over the 131 x 131 placements, per point and searched frame),
// counted as 2 flop each.
double convolution_macs(const Problem& p);

// quick: 2 frames (one search); standard and large: 20, 40, .., 100 (Rodinia runs 20 of
// test.avi's 104; the layout study's range).
std::vector<int> preset_frames(SizePreset size);

// base: the kernels as written (the only variant).
using Variant = layout::Variant;
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::heartwall
