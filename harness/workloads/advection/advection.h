// advection: 2-D advection by the cubic semi-Lagrangian method, the set
// problem of GPU Challenge 2010 (advection_method.h states the
// step). FP32 on the devices; a CPU reference in double.
//
// The grid: nx x ny cells, each a multiple of 64, at most 2^15, and
// nx x ny at most 2^27 (the challenge's rules; check_grid names the one a
// size breaks). The outer two cells on every side keep their initial values.
//
// The flow, which the paper does not state: solid-body rotation about the
// grid's centre (xc, yc) = ((nx - 1) / 2, (ny - 1) / 2), counter-clockwise,
// omega radians per step, in cells per step u = -omega (y - yc),
// v = omega (x - xc); so the departure offsets are
//   xi_x = -u = omega (y - yc)     xi_y = -v = -omega (x - xc),
// computed from the cell's indices (no velocity arrays: a step reads and
// writes f only, 8 bytes a cell in FP32). omega = kCourant / max(xc, yc), so
// |xi| <= kCourant everywhere and one turn takes 2 pi / omega steps.
//
// The initial field: a Gaussian of peak 1 and width sigma = min(nx, ny) / 16
// centred at (xc + min(nx, ny) / 4, yc).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"
#include "halo_split.h"

namespace gpucmp::advection {

constexpr int kGridMultiple = 64;
constexpr int kMaxSide = 1 << 15;
constexpr long long kMaxCells = 1LL << 27;
constexpr int kBorder = 2;        // cells on each side that keep their initial values
constexpr double kCourant = 0.5;  // the largest |u dt / dx| and |v dt / dy| on the grid

// Throws UsageError "<what> <nx>x<ny>: <the rule broken>" unless the grid
// keeps the challenge's rules.
void check_grid(long long nx, long long ny, const std::string& what);

struct Flow {
  int nx = 0, ny = 0;
  double xc = 0, yc = 0, omega = 0;
  double xi_x(int y) const { return omega * (y - yc); }
  double xi_y(int x) const { return -omega * (x - xc); }
  double steps_per_turn() const;
};
Flow make_flow(int nx, int ny);

// The Gaussian at cell (x, y) (row-major: index y * nx + x).
std::vector<double> initial_field(int nx, int ny);

// One step of the method in double, from `from` into `to` (the border copied).
void step_reference(const Flow& flow, const std::vector<double>& from, std::vector<double>& to);

// `steps` steps from the initial field, in double.
std::vector<double> reference(int nx, int ny, int steps);

// Every cell of a device's FP32 field after `steps` steps against the double
// reference: |f - ref| <= steps x kStepTolerance (the field's peak is 1).
constexpr double kStepTolerance = 1e-6;
Validation validate_against(const std::vector<float>& got, const std::vector<double>& want, int nx,
                            int steps);

// The check of a long run that needs no reference: the field's centre (the
// mean position of its cells above half its maximum) stays where the method
// carries the peak (within kPeakCells cells of peak_after), and
// its maximum and minimum stay within [-kBoundSlack, 1 + kBoundSlack] (the
// cubic is not monotone: it may overshoot a little).
//
// Where the method carries a point: its departure point is the arrival
// point A less one step of the velocity at A (the challenge's step), D = A +
// omega J (A - c) for this flow, J the quarter turn, so a feature at D moves
// to A: each step turns it by atan(omega) and draws it in by 1 / sqrt(1 +
// omega^2) towards the centre. After n steps: the angle n atan(omega), the
// radius (1 + omega^2)^(-n/2) times the first. (At 2048^2 and 61440 steps
// the pull is 3.75 cells: the exact rotation's position would fail a
// correct run.)
struct Point {
  double x = 0, y = 0;
};
Point peak_after(int nx, int ny, long long steps);
constexpr double kPeakCells = 2.0;
constexpr double kBoundSlack = 0.02;
Validation validate_long_run(const std::vector<float>& got, int nx, int ny, long long steps);

// ---- the workload: one launch is one step (advection_workload.cpp) ----
//   blocked  the paper's kernel: a block of kTileX threads per kTileX x
//            kTileY cells, f with its halo in shared memory, each thread one
//            column, the x-coefficients of the five rows it spans kept in
//            registers as the column advances; the branch-free form
//   branchy  the same, with the two-branch form (both sides' coefficients)
//   plain    one thread per cell, its 5 x 5 neighbours read from global
//            memory (through the caches); the branch-free form
//   weights  a tile of kTileX x kWeightsRows cells (shorter than blocked's,
//            so that more blocks are resident), each thread keeping the 5 x 5 values
//            around its cell in registers as the column advances, and the
//            step as weights (advection_method.h upwind_weights): the x
//            weights of the block's rows computed once per block into
//            shared memory (the flow's xi_x depends on the row only), the y
//            weights once per column; 25 + 5 multiply-adds a cell
//   stream   weights' step (the same sums in the same order: the same
//            field bit for bit), a block of kTileX threads walking kTileY
//            rows, each input row read once through a double row buffer in
//            shared memory into each thread's 5 x 5 register window, the
//            rows kStreamPrefetch ahead already loading into registers
//   async    weights' step again, bit for bit, streamed as stream is but
//            through a ring of kAsyncPrefetch + 2 rows in shared memory
//            that the API's own asynchronous copy fills kAsyncPrefetch rows
//            ahead (CUDA cp.async, OpenCL async_work_group_copy), so no
//            register waits for a load; kAsyncCells columns a thread (one
//            16-byte copy and store a row), kAsyncRows rows a block, and the
//            zero weight of each row skipped where the block's rows share
//            their xi_x sign (all but the block astride yc): 20 + 5
//            multiply-adds a cell
//   ring     async with the ring filled by ordinary loads and stores, which
//            wait for the loads: the cross-run that prices the asynchronous
//            copy on each API (CUDA: one 16-byte load and store a thread and
//            row; OpenCL: async_work_group_copy's columns, 4 bytes a load)
// and an OpenCL source form of ring:
//   ring-vec4  OpenCL: ring with CUDA's copy, one float4 load and store a
//            work-item and row (and the 8 bytes of halo beside the tile as
//            float2), in plain OpenCL C
// and one API's own control of async each (not pairs):
//   async-cpasync  OpenCL: the ring filled by PTX cp.async through NVIDIA's
//                  inline asm (NVIDIA's driver only)
//   async-ptx-cpasync  OpenCL: async built from its own PTX after gpucmp's
//                  cpasync pass (the copy loops as cp.async; NVIDIA only)
//   async-ptx-cpasync-nobar  OpenCL: the same after cpasync-nobar (each
//                  copy's own barrier removed as well; NVIDIA only)
//   async-cpasync-wait0, async-cpasync-4b, async-cpasync-4b-wait0  OpenCL:
//                  async-cpasync waiting for every copy at each row (as the
//                  pass's build does), copying the row element by element
//                  in 4 bytes (the copy loop's shape the pass keeps), and
//                  both: the cross-runs that divide the pass's gap to the
//                  inline form between the two (NVIDIA only)
//   async-maxl1    CUDA: the kernel at its smallest shared-memory carveout
// The device's f: two buffers, swapped each step (the border of both holds
// the initial values). A step reads and writes f once at least: 8 bytes a
// cell, the bound's traffic (GB/s counts it).
constexpr int kTileX = 64;
constexpr int kTileY = 64;
constexpr int kPlainRows = 4;       // plain: a block of kTileX x kPlainRows threads
constexpr int kWeightsRows = 16;    // weights: a block of kTileX threads per kTileX x 16 cells
constexpr int kStreamPrefetch = 4;  // stream: input rows in flight ahead of the row computed
constexpr int kAsyncThreads = 64;   // async: a block of 64 threads,
constexpr int kAsyncCells = 4;      // each 4 columns wide,
constexpr int kAsyncRows = 16;      // walking 16 rows,
constexpr int kAsyncPrefetch = 6;   // with 6 rows copying ahead
inline constexpr const char* kAsyncCpAsync = "async-cpasync";         // OpenCL's control of async
inline constexpr const char* kAsyncPtxCpAsync = "async-ptx-cpasync";  // async after the pass
inline constexpr const char* kAsyncPtxCpAsyncNoBar =
    "async-ptx-cpasync-nobar";                                            // and no copy barrier
inline constexpr const char* kAsyncMaxL1 = "async-maxl1";                 // CUDA's control of async
inline constexpr const char* kAsyncCpAsyncWait0 = "async-cpasync-wait0";  // every copy waited
inline constexpr const char* kAsyncCpAsync4B = "async-cpasync-4b";        // 4-byte copies
inline constexpr const char* kAsyncCpAsync4BWait0 = "async-cpasync-4b-wait0";  // both
inline constexpr const char* kRingVec4 = "ring-vec4";  // OpenCL's ring with CUDA's copy
// Whether the variant runs async's kernel (its tile shape, a block of
// kAsyncThreads walking kAsyncRows rows): async, ring, ring-vec4 and every
// control of async.
bool runs_async_kernel(const std::string& variant);

struct Problem {
  int nx = 0, ny = 0;
  Flow flow;
  std::vector<float> initial;  // the Gaussian in FP32, as uploaded
  std::vector<float> out;      // the device's field after steps_done steps
  long long steps_done = 0;    // steps launched since the upload (the runner counts)
};
Problem make_problem(int nx, int ny);

// After one step: every cell of every row (at most 2^22 cells), else of 64
// rows spread over the grid (and the first and last rows), against the
// double step from the initial field; after more: validate_long_run.
Validation validate(const Problem& p);

// Bytes a step counts: 8 per cell (f read once, written once).
double counted_bytes(int nx, int ny);

// The challenge's judged problems 1 .. 5 (problems 2 and 3 are one size,
// judged twice): the grid and the steps of a full-length run.
struct JudgedProblem {
  int nx = 0, ny = 0, steps = 0;
};
const std::vector<JudgedProblem>& judged_problems();

// Grids of a preset: quick 256 x 256; standard and large the judged
// problems' grids (2048^2, 4096^2, 16384 x 4096, 8192 x 16384).
std::vector<std::pair<int, int>> preset_grids(SizePreset size);

// A kernel's work-group: the cols x rows cells it covers, by threads_x x
// threads_y threads. A launch covers whole tiles of rows; a grid's columns
// (a multiple of 64) are covered by ceil(nx / cols) tiles, the last in part.
struct TileShape {
  int cols = kTileX, rows = kTileY, threads_x = kTileX, threads_y = 1;
  int tiles_x(int nx) const { return (nx + cols - 1) / cols; }
};
TileShape tile_shape(const std::string& variant);
int tile_rows(const std::string& variant);  // tile_shape(variant).rows

struct Variant {
  std::string name;  // "blocked", "branchy", "plain", "weights", "stream", "async",
                     // "ring"
  // The runner's part of the row split (halo_split.h): part `part` of
  // `parts`, exchanging its halos as `exchange` says over `over`. One part:
  // the grid.
  int parts = 1, part = 0;
  int halo_steps = 1;  // steps from one halo exchange to the next (2 x halo_steps rows each way)
  Exchange exchange = Exchange::sync;
  Transport over = Transport::mpi;
  // CUDA, two parts over NCCL: every step after the first two replayed from
  // a CUDA graph of the step (both parities captured once), rather than
  // enqueued call by call (--advection-graph).
  bool graph = true;
};
const std::vector<Variant>& variants();

// A runner's part of the row split (its rows, halos and neighbours) and the
// steps of its exchange cycle, for the variant's tiles: what both APIs'
// runners launch.
HaloPart runner_part(const Problem& p, const Variant& v);
std::vector<StepPlan> runner_plans(const HaloPart& part, const Variant& v);

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::advection
