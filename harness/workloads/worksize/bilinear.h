// bilinear: bilinear image scaling of Takemoto et al. (IPSJ 2015, work-size
// tuning): a single-channel float image of in x in pixels scaled to out x out
// (out = 2 in), one output pixel per work-item (x = column, y = row,
// row-major, x contiguous), no tiling and no local memory. The study scaled
// to 1024 x 1024 and does not state its input size; gpucmp doubles a 512 x 512
// input. Pixel centres map as sx = (x + 0.5) * (in / out) - 0.5, clamped to
// [0, in - 1]; x0 = floor(sx), x1 = min(x0 + 1, in - 1), fx = sx - x0 (the
// same along y), and out = (1-fy)((1-fx) p[y0][x0] + fx p[y0][x1]) +
// fy((1-fx) p[y1][x0] + fx p[y1][x1]). The global size is (out, out); the
// work-group / block shape is the benchmark parameter (harness/local_rows.h).
// It counts the ideal traffic, GB/s with 4 bytes per output pixel written
// plus 4 per input pixel read once (neighbouring work-items share their
// input pixels; what the caches really fetch can only be more).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../../launch_shape.h"
#include "../../options.h"
#include "../../runner_table.h"
#include "../../split_io.h"
#include "../../validation.h"
#include "../../work_split.h"
#include "../../workload.h"

namespace gpucmp::bilinear {

constexpr int kMultiple = 16;  // the output side is a multiple of this
constexpr int kMinOut = 16;
constexpr int kMaxOut = 16384;  // 1 GiB of output

struct Problem {
  int in_w = 0, in_h = 0;          // input image
  int out_w = 0, out_h = 0;        // output image
  float scale_x = 0, scale_y = 0;  // in / out as the kernel receives it (0.5 here)
  std::vector<float> in;           // seeded input, in_h rows of in_w
  std::vector<float> out;          // the device's result, out_h rows of out_w
};

// An out x out output of an (out / 2) x (out / 2) input of uniform [0, 1)
// pixels (seeded by out; every value an exact float of 24 bits).
Problem make_problem(int out);

// The source coordinate of output index i along an axis of `in` input pixels,
// in float exactly as the kernels compute it, clamped to [0, in - 1]. With
// scale = 1/2 every step is exact in float: i + 0.5 needs 16 bits, the
// product by 1/2 is exact and (i + 0.5) / 2 - 0.5 = i / 2 - 0.25 is a multiple
// of 1/4 below 2^13, so a contracted fma(i + 0.5, 0.5, -0.5) rounds nothing
// either and device and reference agree on x0, x1 and fx bit for bit.
float source_coord(int i, float scale, int in);

// Output pixel (x, y) interpolated in double from the float coordinates.
double reference_pixel(const Problem& p, int x, int y);

// Every pixel's |out - ref| (absolute: pixels lie in [0, 1)) against 2^-20.
// The weights 1-fx, fx, 1-fy, fy are exact (fx, fy are multiples of 1/4) and
// sum to one, so each float row blend has at most two product roundings and
// one sum rounding, each below 2^-24 (all magnitudes below 1): <= 2^-23; the
// column blend carries that and adds the same again: <= 2^-22 in all, with
// or without FMA contraction. 2^-20 leaves a factor 4; a wrong neighbour or
// weight moves a pixel by the difference of two random pixels (~1/3).
Validation validate(const Problem& p);
double tolerance();

// Bytes one launch counts: 4 x (out^2 + in^2), the ideal traffic.
double counted_bytes(const Problem& p);

// Output sides: quick 256 (input 128); standard and large 1024 (input 512).
std::vector<int> preset_sizes(SizePreset size);

GlobalSize global_size(int out);

struct Variant {
  std::string name;  // "base"
  LocalShape local;  // set by the harness to the row's resolved shape
  Part part;         // a split row's block of the output (harness/split_rows.h)
};

// What a part writes and reads: its block of the output, and the input rows
// (or columns) its pixels interpolate from (source_coord of its first and
// last pixel, and the neighbour after), all of the input along the other axis.
Rect out_rect(const Problem& p, const Part& part);
Rect in_rect(const Problem& p, const Part& part);
// The same as host transfers (split_io.h): the input in, the output out.
std::vector<PartTransfer> part_io(Problem& p, const Part& part);

// Launches per job of a split row: the study's 10000.
constexpr int kSplitLaunches = 10000;
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::bilinear
