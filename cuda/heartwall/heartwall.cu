// HeartWall (harness/workloads/heartwall/heartwall.h), after Rodinia 3.1's
// cuda/heartwall/kernel.cu: one block per point, one launch per frame, its
// stages in Rodinia's order (docs/studies/heartwall.md, "The kernels").
// Written once against the generated hwpoint accessors and compiled once per
// layout (GPUCMP_LAYOUT and GPUCMP_TILE are template parameters). Pairs with
// opencl/heartwall/heartwall.cl, line for line.
#include <gpucmp_layouts.h>

#include <stdexcept>
#include <string>

#include "heartwall_kernels.h"
#include "workloads/heartwall/heartwall.h"

namespace gpucmp::cuda {

namespace {
namespace hw = heartwall;
constexpr int kW = hw::kWidth, kH = hw::kHeight;
constexpr int kT = hw::kTemplateSide, kTR = hw::kTemplateRadius, kTE = hw::kTemplateElems;
constexpr int kS = hw::kSearchSide, kSR = hw::kSearchRadius;
constexpr int kC = hw::kCorrSide, kCR = hw::kCorrRadius, kCE = hw::kCorrElems;
constexpr int kQ = hw::kTableSide, kQE = hw::kTableElems;
constexpr int kThreads = hw::kThreads;

// A pixel of the frame, its coordinates held inside it: a point tracked off
// its course reads the border instead of another buffer.
__device__ float pixel(const float* frame, int row, int col) {
  row = min(max(row, 0), kH - 1);
  col = min(max(col, 0), kW - 1);
  return frame[row * kW + col];
}

// GENERATE TEMPLATE (frame 0): each point's template is the patch around its
// input point, its position and anchor the input point. A kernel of its own:
// Rodinia branches on frame_no inside one kernel, but a branch around the
// tracking's barriers, uniform as it is, breaks PoCL's work-group barriers
// (heartwall.cl), and the pair keeps one structure.
template <int GPUCMP_LAYOUT, int GPUCMP_TILE>
__global__ void __launch_bounds__(kThreads)
    heartwall_template_kernel(const float* frame, const int* start, float* state, size_t n,
                              int* track) {
  const int p = blockIdx.x, tx = threadIdx.x;
  const int row = start[2 * p], col = start[2 * p + 1];
  for (int e = tx; e < kTE; e += kThreads)
    hwpoint_templ(state, n, p, e) = pixel(frame, row - kTR + e / kT, col - kTR + e % kT);
  if (tx == 0) {
    hwpoint_row(state, n, p) = float(row);
    hwpoint_col(state, n, p) = float(col);
    hwpoint_anchor_row(state, n, p) = float(row);
    hwpoint_anchor_col(state, n, p) = float(col);
    track[2 * p] = row;
    track[2 * p + 1] = col;
  }
}

// PROCESS POINTS (frames 1, 2, ...).
template <int GPUCMP_LAYOUT, int GPUCMP_TILE>
__global__ void __launch_bounds__(kThreads)
    heartwall_kernel(const float* frame, int frame_no, float* state, size_t n, float* corr_all,
                     int* tables_all, int* track) {
  __shared__ float area[kS * kS];  // the search area (Rodinia's d_in2)
  __shared__ float templ[kTE];     // the template (Rodinia's d_in_mod_temp)
  __shared__ float sum_part[kThreads], sq_part[kThreads];
  __shared__ float peak_val[kC];
  __shared__ int peak_at[kC];
  __shared__ int found[2];
  const int p = blockIdx.x, tx = threadIdx.x;

  // SELECTION: the area around the anchor and the template, into shared memory.
  const int anchor_row = int(hwpoint_anchor_row(state, n, p));
  const int anchor_col = int(hwpoint_anchor_col(state, n, p));
  const int last_row = int(hwpoint_row(state, n, p));
  const int last_col = int(hwpoint_col(state, n, p));
  for (int e = tx; e < kS * kS; e += kThreads)
    area[e] = pixel(frame, anchor_row - kSR + e / kS, anchor_col - kSR + e % kS);
  for (int e = tx; e < kTE; e += kThreads) templ[e] = hwpoint_templ(state, n, p, e);
  __syncthreads();

  // CUMULATIVE SUMS: summed-area tables of the area's pixels and squares,
  // down the columns (a thread a column), then along the rows (a thread a
  // row), in int: exact for 8-bit pixels.
  int* sum = tables_all + size_t(p) * 2 * kQE;
  int* sq = sum + kQE;
  if (tx < kQ) {
    int s = 0, q = 0;
    sum[tx] = 0;
    sq[tx] = 0;
    for (int y = 1; y < kQ; ++y) {
      if (tx > 0) {
        const int v = int(area[(y - 1) * kS + tx - 1]);
        s += v;
        q += v * v;
      }
      sum[y * kQ + tx] = s;
      sq[y * kQ + tx] = q;
    }
  }
  __syncthreads();
  if (tx < kQ) {
    int s = 0, q = 0;
    for (int x = 0; x < kQ; ++x) {
      s += sum[tx * kQ + x];
      q += sq[tx * kQ + x];
      sum[tx * kQ + x] = s;
      sq[tx * kQ + x] = q;
    }
  }

  // TEMPLATE STATISTICS: its sum and sum of squares, a tree over the block.
  float ts = 0, tq = 0;
  for (int e = tx; e < kTE; e += kThreads) {
    ts += templ[e];
    tq += templ[e] * templ[e];
  }
  sum_part[tx] = ts;
  sq_part[tx] = tq;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (tx < stride) {
      sum_part[tx] += sum_part[tx + stride];
      sq_part[tx] += sq_part[tx + stride];
    }
    __syncthreads();
  }
  const float t_sum = sum_part[0];
  const float mean = t_sum / kTE;
  const float denom_t = sqrtf(float(kTE - 1)) * sqrtf(sq_part[0] / kTE - mean * mean);

  // CONVOLUTION and NORMALIZATION: the template at every overlap of the
  // 131 x 131 map (column-major, Rodinia's order), each value normalized by
  // the area's sums under it.
  float* corr = corr_all + size_t(p) * kCE;
  for (int e = tx; e < kCE; e += kThreads) {
    const int top = e % kC - (kT - 1), left = e / kC - (kT - 1);
    const int y0 = max(top, 0), y1 = min(top + kT, kS);
    const int x0 = max(left, 0), x1 = min(left + kT, kS);
    float cross = 0;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) cross += templ[(y - top) * kT + x - left] * area[y * kS + x];
    const float s =
        float(sum[y1 * kQ + x1] - sum[y0 * kQ + x1] - sum[y1 * kQ + x0] + sum[y0 * kQ + x0]);
    const float q =
        float(sq[y1 * kQ + x1] - sq[y0 * kQ + x1] - sq[y1 * kQ + x0] + sq[y0 * kQ + x0]);
    const float numerator = cross - s * t_sum / kTE;
    const float denom_s = sqrtf(fmaxf(q - s * s / kTE, 0.0f));
    corr[e] = numerator / (denom_s * denom_t);
  }
  __syncthreads();

  // MASK and PEAK: the box of -5..+4 around the last position; the largest
  // |value|, strictly greater from 0, a thread a column, then thread 0 over
  // the columns: the first in column-major order on a tie.
  const int box_row = last_row - anchor_row + kCR + hw::kBoxLow;
  const int box_col = last_col - anchor_col + kCR + hw::kBoxLow;
  if (tx < kC) {
    float best = 0;
    int best_at = 0;
    const bool col_in = tx >= box_col && tx < box_col + hw::kMaxMove;
    for (int i = 0; i < kC; ++i) {
      const bool in = col_in && i >= box_row && i < box_row + hw::kMaxMove;
      const float v = in ? fabsf(corr[tx * kC + i]) : 0.0f;
      if (v > best) {
        best = v;
        best_at = tx * kC + i;
      }
    }
    peak_val[tx] = best;
    peak_at[tx] = best_at;
  }
  __syncthreads();
  if (tx == 0) {
    float best = 0;
    int best_at = 0;
    for (int j = 0; j < kC; ++j)
      if (peak_val[j] > best) {
        best = peak_val[j];
        best_at = peak_at[j];
      }
    const int row = anchor_row + best_at % kC - kCR, col = anchor_col + best_at / kC - kCR;
    found[0] = row;
    found[1] = col;
    hwpoint_row(state, n, p) = float(row);
    hwpoint_col(state, n, p) = float(col);
    track[(size_t(frame_no) * n + p) * 2] = row;
    track[(size_t(frame_no) * n + p) * 2 + 1] = col;
  }

  // UPDATE (frames 10, 20, ...): the anchor moves to the new position and
  // the template blends alpha : 1 - alpha with the frame's patch around it.
  __syncthreads();  // outside the branch, as heartwall.cl has it
  if (frame_no % hw::kUpdateEvery == 0) {
    const int row = found[0], col = found[1];
    if (tx == 0) {
      hwpoint_anchor_row(state, n, p) = float(row);
      hwpoint_anchor_col(state, n, p) = float(col);
    }
    for (int e = tx; e < kTE; e += kThreads)
      hwpoint_templ(state, n, p, e) =
          hw::kAlphaF * templ[e] +
          (1.0f - hw::kAlphaF) * pixel(frame, row - kTR + e / kT, col - kTR + e % kT);
  }
}

template <int Layout>
void launch(const float* frame, int frame_no, const int* start, float* state, int points,
            float* corr, int* tables, int* track, cudaStream_t stream) {
  if (frame_no == 0) {
    heartwall_template_kernel<Layout, hw::kDefaultTile>
        <<<unsigned(points), kThreads, 0, stream>>>(frame, start, state, size_t(points), track);
    return;
  }
  heartwall_kernel<Layout, hw::kDefaultTile><<<unsigned(points), kThreads, 0, stream>>>(
      frame, frame_no, state, size_t(points), corr, tables, track);
}
}  // namespace

void launch_heartwall(layout::Layout layout, const float* frame, int frame_no, const int* start,
                      float* state, int points, float* corr, int* tables, int* track,
                      cudaStream_t stream) {
  switch (layout) {
    case layout::Layout::aos:
      return launch<GPUCMP_LAYOUT_AOS>(frame, frame_no, start, state, points, corr, tables, track,
                                       stream);
    case layout::Layout::soa:
      return launch<GPUCMP_LAYOUT_SOA>(frame, frame_no, start, state, points, corr, tables, track,
                                       stream);
    case layout::Layout::aosoa:  // not offered: its tiles do not divide 51 points (heartwall.h)
      break;
  }
  throw std::logic_error("heartwall: no kernel for the state layout " + layout::to_string(layout));
}

}  // namespace gpucmp::cuda
