// mriq and mrifhd (Parboil MRI-Q, MRI-FHD): non-Cartesian MRI reconstruction
// sums over k-space samples for every voxel.
//   mriq:   PhiMag = phiR^2 + phiI^2;  Qr/Qi(x) = sum_k PhiMag_k cos/sin(2 pi k.x)
//   mrifhd: rR = phiR dR + phiI dI, rI = phiR dI - phiI dR;
//           outR(x) = sum_k rR cos - rI sin,  outI(x) = sum_k rI cos + rR sin
// k-values live in constant memory in tiles (1024 for Q, 512 for FHD), one
// launch per tile (the by-value form: a chunk per launch passed as a kernel
// argument, mri_byvalue.h); one voxel per thread, 256 threads per block unless
// --mriq-local / --mrifhd-local's rows give another size (local_size.h).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../launch_shape.h"
#include "../../runner.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"

namespace gpucmp::parboil {
struct BlockRule;  // local_size.h
}  // namespace gpucmp::parboil

namespace gpucmp::mri {

enum class Kind { q, fhd };
const char* workload_name(Kind k);  // "mriq" | "mrifhd"

constexpr int kBlock = 256;                       // threads per block of the default rows
constexpr int kTileQ = 1024;                      // k-values per constant-memory tile (Q)
constexpr int kTileFH = 512;                      // (FHD)
constexpr float kTwoPi = 6.2831853071795864769f;  // float on both APIs

struct Dataset {
  int numK = 0, numX = 0;
  std::vector<float> kx, ky, kz;  // numK
  std::vector<float> x, y, z;     // numX
  std::vector<float> phiR, phiI;  // numK
  std::vector<float> dR, dI;      // numK, FHD only
  std::string origin;             // "generated 32^3" or the input file
};

// Seeded: voxels on an edge^3 grid in [-0.5, 0.5)^3, k uniform in
// [-edge/2, edge/2)^3, phi and d uniform in [-1, 1).
Dataset generate(Kind kind, int numK, int edge);

// Parboil's binary input: int numK, int numX, kx, ky, kz[numK], x, y, z[numX],
// phiR, phiI[numK] (+ dR, dI[numK] for FHD). Throws UsageError naming the file
// and the field for a truncated, oversized or inconsistent file.
Dataset read_parboil_input(const std::string& path, Kind kind);
void write_parboil_input(const std::string& path, const Dataset& d, Kind kind);
// Parboil's output: int numX, then the real and the imaginary arrays.
void write_parboil_output(const std::string& path, const std::vector<float>& re,
                          const std::vector<float>& im);
std::pair<std::vector<float>, std::vector<float>> read_parboil_output(const std::string& path);

struct Problem {
  Kind kind = Kind::q;
  Dataset data;
  std::vector<float> out_r, out_i;  // Qr/Qi or outR/outI: the device's result
};

// Parboil's compare-output rule: a value passes if |d| <= t * max|ref| or
// |d| < 20 t |ref|, t = 1e-4 precise (Parboil's) and 2e-3 fast (our choice:
// __sinf/native_sin lose accuracy with |argument|, here up to ~300 rad).
// max_rel_err = max |d| / max(max|ref|, 20 |ref|), so it passes iff <= t.
// All voxels are checked when numK * numX <= 2^25, else a seeded sample of
// 2048 (max|ref| then taken over the sample).
Validation validate(const Problem& p, bool fast_math);
double tolerance(bool fast_math);

// flop per launch: Q 12 per voxel x k (dot 5, x 2pi 1, sin 1, cos 1, 2 mul, 2 add)
// + 3 per k; FHD 16 per voxel x k + 6 per k.
double flops(Kind kind, int numK, int numX);

// How the voxel kernel walks its constant-memory tile of k-values.
//   tile_and_count: the origin's form (Parboil): the leftover k-values first
//     (numK % 2 for Q, numK % 4 for FHD), then the unrolled loop bounded both
//     by the compile-time tile size and by the tile's count. nvcc 13.0 keeps
//     the counter in a per-thread register and reads the tile with
//     LDC c[0x3][R] (as Parboil's kernels compile).
//   count_only: gpucmp's first form: the unrolled loop bounded only by the
//     count (a kernel parameter), the leftovers after it. nvcc 13.0 keeps the
//     counter in a uniform register and reads the tile with ULDC c[0x3][UR].
//   prefetch: the origin's form with each step's k-values (2 for Q, 4 for
//     FHD: the unrolled step) read one step ahead into registers (software
//     pipelining in the source: load step s+1, then compute step s).
enum class KLoop { tile_and_count, count_only, prefetch };

// Where the voxel kernel reads its k-values from (the same per-k arithmetic
// in both):
//   constant  as written: a tile of kTileQ / kTileFH k-values in constant
//             memory (CUDA a __constant__ symbol; OpenCL a __constant argument,
//             which NVIDIA's JIT reads with global loads), one copy and one
//             launch a tile, the per-k factors (PhiMag, RhoPhi) computed by a
//             kernel of the launch
//   byvalue   a chunk of k-values is one kernel argument passed by value (a
//             struct of records: OpenCL a plain struct argument, CUDA a
//             __grid_constant__ parameter) in the parameters' constant bank,
//             read in place on both APIs, as cp's by-value form
//             (cp::Form::byvalue); byvalue_k()
//             k-values a launch (mri_byvalue.h), no copy, the tile_and_count
//             loop over the chunk. The chunk leaves from host memory, so the
//             per-k factors are computed on the host at the start of each
//             timed launch (fill_byvalue_records), not by a kernel of it.
enum class KFrom { constant, byvalue };

// local: the voxel kernel's block (work-group) size, x only; the per-k
// kernel keeps kBlock. Any size works: the grid rounds up and the kernel
// returns for t >= numX; it reads its block size at run time (blockDim /
// get_global_id), the tiles of k-values do not depend on it.
struct Variant {
  std::string name;  // "precise" | "fast" | "uniform-tile" | ... | "fast-byvalue"
  bool fast_math;
  KLoop loop = KLoop::tile_and_count;
  KFrom from = KFrom::constant;
  LocalShape local{kBlock, 1};
};
inline bool default_local(const Variant& v) { return v.local == LocalShape{kBlock, 1}; }
const std::vector<Variant>& variants();

// One of variants() by name; throws ApiError for an unknown one.
const Variant& variant(const std::string& name);

// What the voxel kernel allows as its block for `numX` voxels (local_size.h):
// any size (the grid rounds up); sweep takes the divisors of numX.
parboil::BlockRule block_rule(Kind kind, int numX);

// The runners of mriq or mrifhd (runner_table.h): variants() are shared by
// both APIs; an API may add its own (OpenCL's PTX variants, CUDA's cross-run rows).
using Runners = RunnerTable<Problem, Variant>;
Runners& runners(Kind kind);

std::unique_ptr<Workload> make_workload(Kind kind);

}  // namespace gpucmp::mri
