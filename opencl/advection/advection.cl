// One step of the cubic semi-Lagrangian advection (harness/workloads/
// advection/advection.h, advection_method.h). Pairs with
// cuda/advection/advection.cu, line for line: advection_blocked is the
// branch-free form, or the two-branch form when built with -DTWO_BRANCH;
// advection_plain is one work-item per cell (branch-free); advection_weights
// the blocked tile with the step as weights; advection_stream the same step
// streamed row by row (async: advection_async.cl).
#include "advection_step.clh"

#define TILE_X 64      // advection::kTileX
#define TILE_Y 64      // advection::kTileY
#define HALO 2
#define PLAIN_ROWS 4
#define WEIGHTS_ROWS 16  // advection::kWeightsRows
#define SIXTH (1.0f / 6)
#define THIRD (1.0f / 3)
#define TWO_THIRDS (2.0f / 3)

typedef struct {
  float c3, c2, c1, c0, dif;
} BranchFree;

BranchFree branch_free_of(float f0, float f1, float f2, float f3, float f4) {
  BranchFree c = {(f3 - f0) * SIXTH + (f1 - f2) * 0.5f, (f3 + f1) * 0.5f - f2,
                  f3 * THIRD + f2 * 0.5f - f1 + f0 * SIXTH, f2,
                  (f1 + f3) * TWO_THIRDS - f2 - (f0 + f4) * SIXTH};
  return c;
}

float branch_free_at(BranchFree c, float xi) {
  const float fp = ((c.c3 * xi + c.c2) * xi + c.c1) * xi + c.c0;
  return fp - c.dif * xi * (xi * xi - 1.0f) * (xi > 0.0f ? 1.0f : 0.0f);
}

typedef struct {
  float c3p, c3m, c2, c1p, c1m, c0;
} TwoBranch;

TwoBranch two_branch_of(float f0, float f1, float f2, float f3, float f4) {
  TwoBranch c = {(f3 - f0) * SIXTH + (f1 - f2) * 0.5f, (f4 - f1) * SIXTH + (f2 - f3) * 0.5f,
                 (f3 + f1) * 0.5f - f2, f3 * THIRD + f2 * 0.5f - f1 + f0 * SIXTH,
                 -f1 * THIRD - f2 * 0.5f + f3 - f4 * SIXTH, f2};
  return c;
}

float two_branch_at(TwoBranch c, float xi) {
  if (xi > 0.0f) return ((c.c3m * xi + c.c2) * xi + c.c1m) * xi + c.c0;
  return ((c.c3p * xi + c.c2) * xi + c.c1p) * xi + c.c0;
}

#ifdef TWO_BRANCH
#define CUBIC TwoBranch
#define CUBIC_OF two_branch_of
#define CUBIC_AT two_branch_at
#else
#define CUBIC BranchFree
#define CUBIC_OF branch_free_of
#define CUBIC_AT branch_free_at
#endif

// Every kernel: grid rows y_first + get_group_id(1) x (its tile's rows) on,
// of the nx x ny grid; `from` and `to` hold the grid's rows from row0 on (a
// part's resident rows, harness/workloads/advection/halo_split.h; 0: all).

// Rows y0 - 2 .. y0 + rows + 1, columns x0 - 2 .. x0 + TILE_X + 1 of f into
// `tile` (rows of TILE_X + 4), clamped at the grid's edge, where only border
// cells, which keep their values, would read them.
void load_tile(__local float* tile, int rows, __global const float* from, int row0, int x0, int y0,
               int nx, int ny) {
  for (int r = 0; r < rows + 2 * HALO; ++r) {
    const int gy = min(max(y0 - HALO + r, 0), ny - 1) - row0;
    for (int c = get_local_id(0); c < TILE_X + 2 * HALO; c += TILE_X) {
      const int gx = min(max(x0 - HALO + c, 0), nx - 1);
      tile[r * (TILE_X + 2 * HALO) + c] = from[(size_t)gy * nx + gx];
    }
  }
}

#define ROW(r) CUBIC_OF(tile[r][tx], tile[r][tx + 1], tile[r][tx + 2], tile[r][tx + 3], tile[r][tx + 4])

__kernel void advection_blocked(__global const float* from, __global float* to, int row0,
                                int y_first, int nx, int ny, float xc, float yc, float omega) {
  __local float tile[TILE_Y + 2 * HALO][TILE_X + 2 * HALO];
  const int tx = get_local_id(0);
  const int x0 = get_group_id(0) * TILE_X, y0 = y_first + get_group_id(1) * TILE_Y;
  load_tile(&tile[0][0], TILE_Y, from, row0, x0, y0, nx, ny);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = x0 + tx;
  const float xi_y = -omega * ((float)x - xc);
  CUBIC w0 = ROW(0), w1 = ROW(1), w2 = ROW(2), w3 = ROW(3);
#pragma unroll 4
  for (int t = 0; t < TILE_Y; ++t) {
    const CUBIC w4 = ROW(t + 4);
    const int y = y0 + t;
    const float xi_x = omega * ((float)y - yc);
    float out = tile[t + HALO][tx + HALO];
    if (!on_border(x, y, nx, ny))
      out = CUBIC_AT(CUBIC_OF(CUBIC_AT(w0, xi_x), CUBIC_AT(w1, xi_x), CUBIC_AT(w2, xi_x),
                              CUBIC_AT(w3, xi_x), CUBIC_AT(w4, xi_x)),
                     xi_y);
    to[(size_t)(y - row0) * nx + x] = out;
    w0 = w1;
    w1 = w2;
    w2 = w3;
    w3 = w4;
  }
}

__kernel void advection_plain(__global const float* from, __global float* to, int row0, int y_first,
                              int nx, int ny, float xc, float yc, float omega) {
  const int x = get_group_id(0) * TILE_X + get_local_id(0);
  const int y = y_first + get_group_id(1) * PLAIN_ROWS + get_local_id(1);
  const size_t i = (size_t)(y - row0) * nx + x;
  if (on_border(x, y, nx, ny)) {
    to[i] = from[i];
    return;
  }
  const float xi_x = omega * ((float)y - yc), xi_y = -omega * ((float)x - xc);
  float v[5];
#pragma unroll
  for (int r = 0; r < 5; ++r) {
    __global const float* f = from + (size_t)(y - row0 - HALO + r) * nx + (x - HALO);
    v[r] = branch_free_at(branch_free_of(f[0], f[1], f[2], f[3], f[4]), xi_x);
  }
  to[i] = branch_free_at(branch_free_of(v[0], v[1], v[2], v[3], v[4]), xi_y);
}

__kernel void advection_weights(__global const float* from, __global float* to, int row0,
                                int y_first, int nx, int ny, float xc, float yc, float omega) {
  __local float tile[WEIGHTS_ROWS + 2 * HALO][TILE_X + 2 * HALO];
  __local float wx[WEIGHTS_ROWS][5];
  const int tx = get_local_id(0);
  const int x0 = get_group_id(0) * TILE_X, y0 = y_first + get_group_id(1) * WEIGHTS_ROWS;
  load_tile(&tile[0][0], WEIGHTS_ROWS, from, row0, x0, y0, nx, ny);
  if (tx < WEIGHTS_ROWS) upwind_weights_local(omega * ((float)(y0 + tx) - yc), wx[tx]);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = x0 + tx;
  float wy[5];
  upwind_weights(-omega * ((float)x - xc), wy);
  float a[5][5];
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int c = 0; c < 5; ++c) a[r][c] = tile[r][tx + c];
#pragma unroll 4
  for (int t = 0; t < WEIGHTS_ROWS; ++t) {
#pragma unroll
    for (int c = 0; c < 5; ++c) a[4][c] = tile[t + 4][tx + c];
    const int y = y0 + t;
    to[(size_t)(y - row0) * nx + x] = weighted_step(a, wx[t], wy, on_border(x, y, nx, ny));
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < 5; ++c) a[r][c] = a[r + 1][c];
  }
}

// stream: as cuda/advection/advection.cu advection_stream.
#define PREFETCH 4  // advection::kStreamPrefetch
__kernel void advection_stream(__global const float* from, __global float* to, int row0,
                               int y_first, int nx, int ny, float xc, float yc, float omega) {
  __local float line[2][TILE_X + 2 * HALO];
  __local float wx[TILE_Y][5];
  const int tx = get_local_id(0);
  const int x0 = get_group_id(0) * TILE_X, y0 = y_first + get_group_id(1) * TILE_Y;
  const int x = x0 + tx;
  const int side = tx < HALO || tx >= TILE_X - HALO;
  const int slot = tx < HALO ? tx : tx + 2 * HALO;
  const int hx = min(max(x0 - HALO + slot, 0), nx - 1);
  upwind_weights_local(omega * ((float)(y0 + tx) - yc), wx[tx]);
  float wy[5];
  upwind_weights(-omega * ((float)x - xc), wy);
#define ROWS (TILE_Y + 2 * HALO)
#define ROW_AT(k) ((size_t)(min(max(y0 - HALO + (k), 0), ny - 1) - row0) * nx)
  float pv[PREFETCH], ph[PREFETCH];
#pragma unroll
  for (int k = 0; k < PREFETCH; ++k) {
    pv[k] = from[ROW_AT(k) + x];
    ph[k] = side ? from[ROW_AT(k) + hx] : 0.0f;
  }
  float a[5][5];
#pragma unroll
  for (int k = 0; k < ROWS; ++k) {
    __local float* buf = line[k & 1];
    buf[tx + HALO] = pv[0];
    if (side) buf[slot] = ph[0];
#pragma unroll
    for (int j = 0; j + 1 < PREFETCH; ++j) {
      pv[j] = pv[j + 1];
      ph[j] = ph[j + 1];
    }
    if (k + PREFETCH < ROWS) {
      pv[PREFETCH - 1] = from[ROW_AT(k + PREFETCH) + x];
      if (side) ph[PREFETCH - 1] = from[ROW_AT(k + PREFETCH) + hx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < 5; ++c) a[r][c] = a[r + 1][c];
#pragma unroll
    for (int c = 0; c < 5; ++c) a[4][c] = buf[tx + c];
    if (k < 2 * HALO) continue;
    const int t = k - 2 * HALO, y = y0 + t;
    to[(size_t)(y - row0) * nx + x] = weighted_step(a, wx[t], wy, on_border(x, y, nx, ny));
  }
}
