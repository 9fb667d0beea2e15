// The async variant of the advection step (harness/workloads/advection/
// advection.h): as cuda/advection/advection_async.cu, the ring of rows
// filled by OpenCL's own asynchronous copy, async_work_group_copy, one
// copy of a row's tile columns (and halo) a row, PREFETCH rows ahead; built
// with -DRING_LOADS, the ring variant (ordinary loads and stores; with
// -DRING_VEC4 as well, ring-vec4: CUDA's copy, a float4 a work-item); with
// -DNV_CP_ASYNC (variant async-cpasync, NVIDIA's driver only), the ring
// filled by PTX cp.async through NVIDIA's inline asm, as CUDA's kernel does;
// with -DCP_ASYNC_WAIT=0 as well, each row waits for every copy in flight
// (async-cpasync-wait0), and with -DCP_ASYNC_ELEMENTS each row is copied in
// async_work_group_copy's loop, 4 bytes a cp.async (async-cpasync-4b): the
// two ways the cpasync pass's build differs from it.
#include "advection_step.clh"

#define THREADS 64  // advection::kAsyncThreads
#define CELLS 4     // advection::kAsyncCells: one float4 a work-item and row
#define ROWS 16     // advection::kAsyncRows
#define PREFETCH 6  // advection::kAsyncPrefetch
#define COLS (THREADS * CELLS)
#define IN_ROWS (ROWS + 2 * STEP_HALO)
#define RING (PREFETCH + 2)  // a slot is refilled two barriers after its last reader
#define LEAD 2               // grid column x0 - 2 + j at slot column LEAD + j
#define STRIDE (COLS + 8)

// Input row k (grid row y0 - 2 + k), clamped at the grid's edge, where only
// border cells, which keep their values, read it.
__global const float* input_row(__global const float* from, int row0, int nx, int ny, int y0,
                                int k) {
  int gy = y0 - STEP_HALO + k;
  if (k < STEP_HALO) gy = max(gy, 0);
  if (k >= ROWS + STEP_HALO) gy = min(gy, ny - 1);
  return from + (gy - row0) * nx;
}

#if defined(RING_LOADS) && defined(RING_VEC4)
// ring-vec4: as advection_async.cu's ring, work-item i loads and stores its
// own 16 bytes of the row (the last columns of the grid past its edge), the
// first and the last work-item the 8 bytes of halo beside the tile. The
// casts say the alignment (a row of whole float4, a slot column of 4 + 4i,
// a halo column even), so that the JIT may read and write 16 and 8 bytes at
// once, where vload4 promises it only 4.
#define COPY_MARK int
COPY_MARK copy_row(__local float* ring, __global const float* from, int row0, int nx, int ny,
                   int x0, int y0, int k) {
  const int tx = get_local_id(0);
  const int xl = min(x0 + tx * CELLS, nx - CELLS);
  const bool left = tx == 0, right = tx == THREADS - 1;
  const int hx = left ? max(x0 - STEP_HALO, 0) : min(x0 + COLS, nx - STEP_HALO);
  const int hslot = left ? LEAD : LEAD + STEP_HALO + COLS;
  __local float* slot = ring + (k % RING) * STRIDE;
  __global const float* row = input_row(from, row0, nx, ny, y0, k);
  *(__local float4*)(slot + LEAD + STEP_HALO + tx * CELLS) = *(__global const float4*)(row + xl);
  if (left || right) *(__local float2*)(slot + hslot) = *(__global const float2*)(row + hx);
  return 0;
}
#define WAIT_ROW(e)
#define NO_COPY()
// async_rows issues this form's first PREFETCH copies unrolled, as the
// other forms, with -DRING_VEC4_PROLOGUE_UNROLLED, which the runner passes
// on NVIDIA's driver only; elsewhere in a loop. Unrolled, they give a field
// that differs from weights' on PoCL 3.1 (LLVM 15) with its optimizer on:
// the tile's first output row reads, in the right halo, what a previous
// work-group left in the ring (seen with a field of known values; the cause
// inside PoCL was not isolated, and no race or undefined behaviour was found
// in this source). As a loop, or unrolled with PoCL's optimizer off, the
// field equals weights' bit for bit; on NVIDIA's driver both forms do
// (scripts/experiments/ring_prologue), and the loop costs 10-12% there.
// Controlled variants, for scripts/experiments/ring_prologue only
// (--cl-build-options): -DRING_VEC4_PROLOGUE_LOOP keeps the loop where the
// runner asks for the unrolled form; -DRING_VEC4_COPY_FIRST issues each
// row's copy before the row's barrier, where CUDA's ring issues it (the slot
// it fills was last read two barriers before), not after it.
#if !defined(RING_VEC4_PROLOGUE_UNROLLED) || defined(RING_VEC4_PROLOGUE_LOOP)
#define PROLOGUE_AS_LOOP
#endif
#ifdef RING_VEC4_COPY_FIRST
#define COPY_BEFORE_BARRIER
#endif
#elif defined(RING_LOADS)
// The ring variant: the same columns into the slot by ordinary loads and
// stores, work-item i copying columns lo + i, lo + i + THREADS, ... (as
// load_tile in advection.cl; what NVIDIA's JIT makes of the copy below).
// Nothing is waited: the copy's mark is 0.
#define COPY_MARK int
COPY_MARK copy_row(__local float* ring, __global const float* from, int row0, int nx, int ny,
                   int x0, int y0, int k) {
  const int lo = max(x0 - STEP_HALO, 0), hi = min(x0 + COLS + STEP_HALO, nx);
  __local float* slot = ring + (k % RING) * STRIDE + LEAD + lo - (x0 - STEP_HALO);
  __global const float* src = input_row(from, row0, nx, ny, y0, k) + lo;
  for (int i = get_local_id(0); i < hi - lo; i += THREADS) slot[i] = src[i];
  return 0;
}
#define WAIT_ROW(e)
#define NO_COPY()
#elif defined(NV_CP_ASYNC)
// As advection_async.cu's copy_row: work-item i copies its own 16 bytes of
// the row (the last columns of the grid past its edge), the first and the
// last work-item the 8 bytes of halo beside the tile, by cp.async; one
// group a row, and an empty group where no row is left to copy, so that row
// k is always the PREFETCH-th group back when it is waited for. The copies
// take __local and __global addresses as 64-bit integers: NVIDIA's OpenCL
// PTX addresses __local memory by its shared-window address.
#ifndef CP_ASYNC_WAIT
#define CP_ASYNC_WAIT (PREFETCH - 1)  // groups left in flight when a row is waited for
#endif
#define COPY_MARK int
#ifdef CP_ASYNC_ELEMENTS
// The same columns as async_work_group_copy's (lo .. hi - 1), work-item i
// copying columns lo + i, lo + i + THREADS, ..., 4 bytes a cp.async.
COPY_MARK copy_row(__local float* ring, __global const float* from, int row0, int nx, int ny,
                   int x0, int y0, int k) {
  const int lo = max(x0 - STEP_HALO, 0), hi = min(x0 + COLS + STEP_HALO, nx);
  __local float* slot = ring + (k % RING) * STRIDE + LEAD + lo - (x0 - STEP_HALO);
  __global const float* src = input_row(from, row0, nx, ny, y0, k) + lo;
  for (int i = get_local_id(0); i < hi - lo; i += THREADS)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"l"((ulong)(slot + i)),
                 "l"((ulong)(src + i))
                 : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  return 0;
}
#else
COPY_MARK copy_row(__local float* ring, __global const float* from, int row0, int nx, int ny,
                   int x0, int y0, int k) {
  const int tx = get_local_id(0);
  const int xl = min(x0 + tx * CELLS, nx - CELLS);
  const bool left = tx == 0, right = tx == THREADS - 1;
  const int hx = left ? max(x0 - STEP_HALO, 0) : min(x0 + COLS, nx - STEP_HALO);
  const int hslot = left ? LEAD : LEAD + STEP_HALO + COLS;
  __local float* slot = ring + (k % RING) * STRIDE;
  __global const float* row = input_row(from, row0, nx, ny, y0, k);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"l"(
                   (ulong)(slot + LEAD + STEP_HALO + tx * CELLS)),
               "l"((ulong)(row + xl))
               : "memory");
  if (left || right)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"l"((ulong)(slot + hslot)),
                 "l"((ulong)(row + hx))
                 : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  return 0;
}
#endif
#define WAIT_ROW(e) asm volatile("cp.async.wait_group %0;" ::"n"(CP_ASYNC_WAIT) : "memory")
#define NO_COPY() asm volatile("cp.async.commit_group;" ::: "memory")
#else
#define COPY_MARK event_t
// Row k's columns x0 - 2 .. x0 + COLS + 1 that are in the grid into its
// slot (the others, read by border cells only, are left).
event_t copy_row(__local float* ring, __global const float* from, int row0, int nx, int ny,
                 int x0, int y0, int k) {
  const int lo = max(x0 - STEP_HALO, 0), hi = min(x0 + COLS + STEP_HALO, nx);
  __local float* slot = ring + (k % RING) * STRIDE + LEAD + lo - (x0 - STEP_HALO);
  return async_work_group_copy(slot, input_row(from, row0, nx, ny, y0, k) + lo, hi - lo, 0);
}
#define WAIT_ROW(e) wait_group_events(1, &(e))
#define NO_COPY()
#endif

// The tile's rows, summing the x weights c0 .. c0 + nc - 1 of each row (as
// advection_async.cu's async_rows; called with constants, so that the
// window's indices are known). The y weights come from the caller: computed
// in here, PoCL 3.1 (LLVM 15) got the first column's wrong in the nc 4
// copies (the field differed from weights' in that column only).
void async_rows(const int c0, const int nc, __global const float* from, __global float* to,
                int row0, int nx, int ny, int x0, int y0, __local float* ring,
                __local const float (*wx)[5], const float wy[CELLS][5]) {
  const int win = CELLS + nc - 1;
  const int tx = get_local_id(0), x = x0 + tx * CELLS;
  COPY_MARK copies[PREFETCH];
#ifdef PROLOGUE_AS_LOOP
#pragma unroll 1  // see ring-vec4's copy_row
#else
#pragma unroll
#endif
  for (int k = 0; k < PREFETCH; ++k) copies[k] = copy_row(ring, from, row0, nx, ny, x0, y0, k);
  float a[5][CELLS + 4];
#pragma unroll
  for (int k = 0; k < IN_ROWS; ++k) {
    WAIT_ROW(copies[0]);
#pragma unroll
    for (int j = 0; j + 1 < PREFETCH; ++j) copies[j] = copies[j + 1];
#ifdef COPY_BEFORE_BARRIER
    if (k + PREFETCH < IN_ROWS)
      copies[PREFETCH - 1] = copy_row(ring, from, row0, nx, ny, x0, y0, k + PREFETCH);
    barrier(CLK_LOCAL_MEM_FENCE);
#else
    barrier(CLK_LOCAL_MEM_FENCE);
    if (k + PREFETCH < IN_ROWS)
      copies[PREFETCH - 1] = copy_row(ring, from, row0, nx, ny, x0, y0, k + PREFETCH);
    else
      NO_COPY();
#endif
    __local const float* slot = ring + (k % RING) * STRIDE;
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int j = 0; j < win; ++j) a[r][j] = a[r + 1][j];
#pragma unroll
    for (int j = 0; j < win; ++j) a[4][j] = slot[LEAD + tx * CELLS + c0 + j];
    if (k < 2 * STEP_HALO) continue;
    const int t = k - 2 * STEP_HALO, y = y0 + t;
    float w[5];
#pragma unroll
    for (int j = 0; j < nc; ++j) w[j] = wx[t][c0 + j];
    float out[CELLS];
#pragma unroll
    for (int q = 0; q < CELLS; ++q) {
      float sum = 0.0f;
#pragma unroll
      for (int r = 0; r < 5; ++r) {
        float v = 0.0f;
#pragma unroll
        for (int j = 0; j < nc; ++j) v += w[j] * a[r][q + j];
        sum += wy[q][r] * v;
      }
      out[q] = on_border(x + q, y, nx, ny) ? a[2][q + STEP_HALO - c0] : sum;
    }
    if (x < nx)
      *(__global float4*)(to + (y - row0) * nx + x) = (float4)(out[0], out[1], out[2], out[3]);
  }
}

// -DRESIDENCY_PROBE (scripts/experiments/residency only): two more arguments,
// on which work-item 0 of each group counts the groups resident at once.
#ifdef RESIDENCY_PROBE
#define PROBE_ARGS , __global int *live, __global int *peak
#define PROBE_IN() \
  if (get_local_id(0) == 0) atomic_max(peak, atomic_inc(live) + 1)
#define PROBE_OUT()               \
  barrier(CLK_LOCAL_MEM_FENCE); \
  if (get_local_id(0) == 0) atomic_dec(live)
#else
#define PROBE_ARGS
#define PROBE_IN()
#define PROBE_OUT()
#endif

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void advection_async(
    __global const float* from, __global float* to, int row0, int y_first, int nx, int ny,
    float xc, float yc, float omega PROBE_ARGS) {
  __local float ring[RING * STRIDE] __attribute__((aligned(16)));
  __local float wx[ROWS][5];
  PROBE_IN();
  const int x0 = get_group_id(0) * COLS, y0 = y_first + get_group_id(1) * ROWS;
  for (int t = get_local_id(0); t < ROWS; t += THREADS)
    upwind_weights_local(omega * ((float)(y0 + t) - yc), wx[t]);
  // xi_x is monotone in y: the block's rows share its sign when its first
  // and last do.
  float wy[CELLS][5];  // the y weights of the work-item's columns
#pragma unroll
  for (int q = 0; q < CELLS; ++q)
    upwind_weights(-omega * ((float)(x0 + get_local_id(0) * CELLS + q) - xc), wy[q]);
  const int first = omega * ((float)y0 - yc) > 0.0f;
  const int last = omega * ((float)(y0 + ROWS - 1) - yc) > 0.0f;
  if (first != last)
    async_rows(0, 5, from, to, row0, nx, ny, x0, y0, ring, wx, wy);
  else if (first)
    async_rows(1, 4, from, to, row0, nx, ny, x0, y0, ring, wx, wy);  // w[0] = 0
  else
    async_rows(0, 4, from, to, row0, nx, ny, x0, y0, ring, wx, wy);  // w[4] = 0
  PROBE_OUT();
}
