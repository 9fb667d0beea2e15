// HeartWall (harness/workloads/heartwall/heartwall.h), after Rodinia 3.1's
// opencl/heartwall kernel: one work-group per point, one launch per frame,
// its stages in Rodinia's order (docs/studies/heartwall.md, "The kernels").
// Written once against the generated hwpoint accessors and built once per
// layout: GPUCMP_LAYOUT and GPUCMP_TILE come as -D options
// (heartwall_runner.cpp). Pairs with cuda/heartwall/heartwall.cu, line for
// line.
#include "gpucmp_layouts.h"

#define FRAME_W 609      // heartwall::kWidth
#define FRAME_H 590      // heartwall::kHeight
#define T_SIDE 51        // kTemplateSide
#define T_RADIUS 25      // kTemplateRadius
#define T_ELEMS 2601     // kTemplateElems
#define S_SIDE 81        // kSearchSide
#define S_RADIUS 40      // kSearchRadius
#define C_SIDE 131       // kCorrSide
#define C_RADIUS 65      // kCorrRadius
#define C_ELEMS 17161    // kCorrElems
#define Q_SIDE 82        // kTableSide
#define Q_ELEMS 6724     // kTableElems
#define THREADS 256      // kThreads
#define BOX_LOW (-5)     // kBoxLow
#define MAX_MOVE 10      // kMaxMove
#define UPDATE_EVERY 10  // kUpdateEvery
#define ALPHA 0.87f      // kAlphaF

// A pixel of the frame, its coordinates held inside it: a point tracked off
// its course reads the border instead of another buffer.
float pixel(__global const float* frame, int row, int col) {
  row = min(max(row, 0), FRAME_H - 1);
  col = min(max(col, 0), FRAME_W - 1);
  return frame[row * FRAME_W + col];
}

// GENERATE TEMPLATE (frame 0): each point's template is the patch around its
// input point, its position and anchor the input point. A kernel of its own:
// Rodinia branches on frame_no inside one kernel, but a branch around the
// tracking's barriers, uniform as it is, breaks PoCL's work-group barriers.
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void heartwall_template(
    __global const float* frame, __global const int* start, __global float* state, ulong n,
    __global int* track) {
  const int p = get_group_id(0), tx = get_local_id(0);
  const int row = start[2 * p], col = start[2 * p + 1];
  for (int e = tx; e < T_ELEMS; e += THREADS)
    hwpoint_templ(state, n, p, e) =
        pixel(frame, row - T_RADIUS + e / T_SIDE, col - T_RADIUS + e % T_SIDE);
  if (tx == 0) {
    hwpoint_row(state, n, p) = (float)row;
    hwpoint_col(state, n, p) = (float)col;
    hwpoint_anchor_row(state, n, p) = (float)row;
    hwpoint_anchor_col(state, n, p) = (float)col;
    track[2 * p] = row;
    track[2 * p + 1] = col;
  }
}

// PROCESS POINTS (frames 1, 2, ...).
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void heartwall(
    __global const float* frame, int frame_no, __global float* state, ulong n,
    __global float* corr_all, __global int* tables_all, __global int* track) {
  __local float area[S_SIDE * S_SIDE];  // the search area (Rodinia's d_in2)
  __local float templ[T_ELEMS];         // the template (Rodinia's d_in_mod_temp)
  __local float sum_part[THREADS], sq_part[THREADS];
  __local float peak_val[C_SIDE];
  __local int peak_at[C_SIDE];
  __local int found[2];
  const int p = get_group_id(0), tx = get_local_id(0);

  // SELECTION: the area around the anchor and the template, into local memory.
  const int anchor_row = (int)hwpoint_anchor_row(state, n, p);
  const int anchor_col = (int)hwpoint_anchor_col(state, n, p);
  const int last_row = (int)hwpoint_row(state, n, p);
  const int last_col = (int)hwpoint_col(state, n, p);
  for (int e = tx; e < S_SIDE * S_SIDE; e += THREADS)
    area[e] = pixel(frame, anchor_row - S_RADIUS + e / S_SIDE, anchor_col - S_RADIUS + e % S_SIDE);
  for (int e = tx; e < T_ELEMS; e += THREADS) templ[e] = hwpoint_templ(state, n, p, e);
  barrier(CLK_LOCAL_MEM_FENCE);

  // CUMULATIVE SUMS: summed-area tables of the area's pixels and squares,
  // down the columns (a thread a column), then along the rows (a thread a
  // row), in int: exact for 8-bit pixels.
  __global int* sum = tables_all + (size_t)p * 2 * Q_ELEMS;
  __global int* sq = sum + Q_ELEMS;
  if (tx < Q_SIDE) {
    int s = 0, q = 0;
    sum[tx] = 0;
    sq[tx] = 0;
    for (int y = 1; y < Q_SIDE; ++y) {
      if (tx > 0) {
        const int v = (int)area[(y - 1) * S_SIDE + tx - 1];
        s += v;
        q += v * v;
      }
      sum[y * Q_SIDE + tx] = s;
      sq[y * Q_SIDE + tx] = q;
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (tx < Q_SIDE) {
    int s = 0, q = 0;
    for (int x = 0; x < Q_SIDE; ++x) {
      s += sum[tx * Q_SIDE + x];
      q += sq[tx * Q_SIDE + x];
      sum[tx * Q_SIDE + x] = s;
      sq[tx * Q_SIDE + x] = q;
    }
  }

  // TEMPLATE STATISTICS: its sum and sum of squares, a tree over the group.
  float ts = 0, tq = 0;
  for (int e = tx; e < T_ELEMS; e += THREADS) {
    ts += templ[e];
    tq += templ[e] * templ[e];
  }
  sum_part[tx] = ts;
  sq_part[tx] = tq;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (tx < stride) {
      sum_part[tx] += sum_part[tx + stride];
      sq_part[tx] += sq_part[tx + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float t_sum = sum_part[0];
  const float mean = t_sum / T_ELEMS;
  const float denom_t = sqrt((float)(T_ELEMS - 1)) * sqrt(sq_part[0] / T_ELEMS - mean * mean);

  // CONVOLUTION and NORMALIZATION: the template at every overlap of the
  // 131 x 131 map (column-major, Rodinia's order), each value normalized by
  // the area's sums under it.
  __global float* corr = corr_all + (size_t)p * C_ELEMS;
  for (int e = tx; e < C_ELEMS; e += THREADS) {
    const int top = e % C_SIDE - (T_SIDE - 1), left = e / C_SIDE - (T_SIDE - 1);
    const int y0 = max(top, 0), y1 = min(top + T_SIDE, S_SIDE);
    const int x0 = max(left, 0), x1 = min(left + T_SIDE, S_SIDE);
    float cross = 0;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x)
        cross += templ[(y - top) * T_SIDE + x - left] * area[y * S_SIDE + x];
    const float s = (float)(sum[y1 * Q_SIDE + x1] - sum[y0 * Q_SIDE + x1] - sum[y1 * Q_SIDE + x0] +
                            sum[y0 * Q_SIDE + x0]);
    const float q = (float)(sq[y1 * Q_SIDE + x1] - sq[y0 * Q_SIDE + x1] - sq[y1 * Q_SIDE + x0] +
                            sq[y0 * Q_SIDE + x0]);
    const float numerator = cross - s * t_sum / T_ELEMS;
    const float denom_s = sqrt(fmax(q - s * s / T_ELEMS, 0.0f));
    corr[e] = numerator / (denom_s * denom_t);
  }
  barrier(CLK_GLOBAL_MEM_FENCE);

  // MASK and PEAK: the box of -5..+4 around the last position; the largest
  // |value|, strictly greater from 0, a thread a column, then thread 0 over
  // the columns: the first in column-major order on a tie.
  const int box_row = last_row - anchor_row + C_RADIUS + BOX_LOW;
  const int box_col = last_col - anchor_col + C_RADIUS + BOX_LOW;
  if (tx < C_SIDE) {
    float best = 0;
    int best_at = 0;
    const bool col_in = tx >= box_col && tx < box_col + MAX_MOVE;
    for (int i = 0; i < C_SIDE; ++i) {
      const bool in = col_in && i >= box_row && i < box_row + MAX_MOVE;
      const float v = in ? fabs(corr[tx * C_SIDE + i]) : 0.0f;
      if (v > best) {
        best = v;
        best_at = tx * C_SIDE + i;
      }
    }
    peak_val[tx] = best;
    peak_at[tx] = best_at;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tx == 0) {
    float best = 0;
    int best_at = 0;
    for (int j = 0; j < C_SIDE; ++j)
      if (peak_val[j] > best) {
        best = peak_val[j];
        best_at = peak_at[j];
      }
    const int row = anchor_row + best_at % C_SIDE - C_RADIUS,
              col = anchor_col + best_at / C_SIDE - C_RADIUS;
    found[0] = row;
    found[1] = col;
    hwpoint_row(state, n, p) = (float)row;
    hwpoint_col(state, n, p) = (float)col;
    track[((size_t)frame_no * n + p) * 2] = row;
    track[((size_t)frame_no * n + p) * 2 + 1] = col;
  }

  // UPDATE (frames 10, 20, ...): the anchor moves to the new position and
  // the template blends alpha : 1 - alpha with the frame's patch around it.
  barrier(CLK_LOCAL_MEM_FENCE);  // outside the branch: PoCL's barriers (above)
  if (frame_no % UPDATE_EVERY == 0) {
    const int row = found[0], col = found[1];
    if (tx == 0) {
      hwpoint_anchor_row(state, n, p) = (float)row;
      hwpoint_anchor_col(state, n, p) = (float)col;
    }
    for (int e = tx; e < T_ELEMS; e += THREADS)
      hwpoint_templ(state, n, p, e) =
          ALPHA * templ[e] +
          (1.0f - ALPHA) * pixel(frame, row - T_RADIUS + e / T_SIDE, col - T_RADIUS + e % T_SIDE);
  }
}
