// cp: Coulombic potential on one plane of a 3D lattice (VMD's cionize, Parboil
// CP). energy(x, y) = sum_atoms q / sqrt(dx^2 + dy^2 + dz^2), atoms uploaded to
// constant memory in chunks, one launch per chunk accumulating into the grid.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../byvalue_chunk.h"
#include "../../device_info.h"
#include "../../launch_shape.h"
#include "../../runner.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"

namespace gpucmp::parboil {
struct BlockRule;  // local_size.h
}  // namespace gpucmp::parboil

namespace gpucmp::cp {

constexpr int kAtomsPerChunk = 4000;      // 4000 x float4 = 64000 B of constant memory
constexpr int kBlockX = 16, kBlockY = 8;  // thread block (work-group) shape of the default rows
constexpr int kUnrollX = 8;               // unrollx8: points per thread, blockDim.x apart along x

struct Config {
  int nx = 512, ny = 512;  // lattice points of the plane
  int atoms = 40000;
  float spacing = 0.1f;  // lattice spacing (Angstrom)
  bool operator!=(const Config& o) const {
    return nx != o.nx || ny != o.ny || atoms != o.atoms || spacing != o.spacing;
  }
};

struct Problem {
  Config config;
  // One float4 per atom: (x, y, dz^2 to the plane, q), as the kernels read them.
  std::vector<float> atoms;   // 4 x config.atoms
  std::vector<float> energy;  // ny x nx, row-major: the device's result
};

// Seeded: atoms uniform in the box [0, nx*h) x [0, ny*h) x [0, 20 h), charges
// uniform in [-1, 1]; the plane is at z = 10.05 h (between lattice planes).
Problem make_problem(const Config& c);

// Checked points: all when nx*ny*atoms <= 2^26, else a seeded sample of 1024.
// Tolerance (Parboil's compare-output for cp): each value within 0.005
// absolute or 0.5% relative of the double reference; max_rel_err reports
// |d| / max(|ref|, 1) so that it is <= 0.005 exactly when a value passes.
Validation validate(const Problem& p);

// 7 flop per point x atom interaction: dx, dx^2, + dy^2+dz^2, sqrt, 1/x, x q, +=
// (sqrt and the reciprocal each count as one).
constexpr double kFlopPerInteraction = 7;
double interactions(const Config& c);

enum class Kernel { base, unrollx8 };
// Math of a variant. The APIs' defaults differ for 1.0f / sqrtf(x): CUDA's
// default (-prec-div=true -prec-sqrt=true) rounds both correctly, OpenCL 1.2
// allows 3 ulp for sqrt and 2.5 ulp for division. `precise` pairs the two
// defaults; `ieee` pairs CUDA's default with OpenCL's
// -cl-fp32-correctly-rounded-divide-sqrt (identical semantics); `fast` pairs
// --use_fast_math with -cl-fast-relaxed-math.
// unrollx8-fast-ftz is fast math with denormals flushed on both APIs:
// --use_fast_math already implies -ftz=true (the CUDA kernels are those of
// unrollx8-fast); OpenCL adds -cl-denorms-are-zero to -cl-fast-relaxed-math.
enum class Math { precise, ieee, fast };
// Where unrollx8 reads its atoms (the same arithmetic in every form):
//   constant  as written: a chunk of kAtomsPerChunk atoms in constant memory
//             (CUDA a __constant__ symbol; OpenCL a __constant argument, which
//             NVIDIA's JIT reads with global loads), one copy and one launch a chunk
//   byvalue   the chunk is a kernel argument passed by value (a struct holding
//             an array of atoms: OpenCL a plain struct argument, CUDA a
//             __grid_constant__ parameter), read from the parameters' constant
//             bank; byvalue_atoms() atoms a launch, no copy
//   prefetch  as written, each step's atom read one step ahead into registers
//             (software pipelining in the source: load atom n+1, then compute atom n)
enum class Form { constant, byvalue, prefetch };
// local: the block (work-group) shape the runners launch; --cp-local's rows
// set it (local_size.h). Any shape that tiles the grid works: the kernels
// read their block size at run time (blockDim / get_local_size).
struct Variant {
  std::string name;  // "base", "unrollx8", "unrollx8-ieee", "unrollx8-fast", ...
  Kernel kernel;
  Math math;
  Form form = Form::constant;
  LocalShape local{kBlockX, kBlockY};
};
inline bool default_local(const Variant& v) { return v.local == LocalShape{kBlockX, kBlockY}; }
const std::vector<Variant>& variants();

// One of variants() by name; throws ApiError for an unknown one.
const Variant& variant(const std::string& name);

// byvalue: the kernel's other arguments before the chunk, in bytes: numatoms
// (int), gridspacing (float), energygrid (a pointer, counted as 8 bytes);
// the chunk, 16-byte aligned, follows at offset 16.
constexpr long long kByValueOtherBytes = 4 + 4 + 8;
// The CUDA control's chunk (a compile-time array size): what CUDA's limit of
// 32764 bytes (byvalue::kCudaParameterBytes) gives (below), as NVIDIA's
// OpenCL limit does, so that both APIs launch alike.
constexpr int kByValueAtoms = 1024;
// Atoms of one by-value launch on a device whose arguments may take
// `parameter_bytes` in all: the largest power of two n with
// other_bytes + 16 n <= parameter_bytes, at most 2048 (the largest power of
// two in kAtomsPerChunk); 0 when not one atom fits (byvalue_chunk.h's rule,
// rounded down to a power of two): 32764 B -> 1024 (2046 would fit),
// 4352 B -> 256, 1024 B (OpenCL's minimum) -> 32.
constexpr byvalue::Shape kByValueShape{"cp by value", "atom", kByValueOtherBytes, 16, 2048};
constexpr int byvalue_atoms(long long parameter_bytes, long long other_bytes) {
  return byvalue::power_of_two_floor(byvalue::records_fitting(
      parameter_bytes, other_bytes, kByValueShape.record_bytes, kByValueShape.max_records));
}
static_assert(byvalue_atoms(byvalue::kCudaParameterBytes, kByValueOtherBytes) == kByValueAtoms);
// The chunk of a by-value launch on `dev`: from dev.max_parameter_bytes, or
// kByValueAtoms where the API states no limit (CUDA, whose kernels' chunk is
// compiled in). Throws Unavailable when not one atom fits.
int byvalue_atoms(const DeviceInfo& dev);
// Atoms one launch of `v`'s kernel takes on `dev` (kAtomsPerChunk, or
// byvalue_atoms(dev) for the by-value form), and the commands one timed
// launch enqueues: the grid cleared, then per chunk a copy into constant
// memory (none by value) and a kernel.
int atoms_per_launch(const Variant& v, const DeviceInfo& dev);
int commands_per_launch(const Config& c, const Variant& v, const DeviceInfo& dev);
// byvalue: the atoms as the launches pass them, `per_launch` to a kernel
// argument: p.atoms followed by zero atoms up to a whole number of chunks, so
// that the last launch passes as many bytes as the others (it reads only its
// count).
std::vector<float> byvalue_chunks(const Problem& p, int per_launch);

// What `kernel` allows as its block on the grid of `c` (local_size.h): base,
// X divides nx; unrollx8, 8 X divides nx (each thread 8 points, X apart); Y
// divides ny.
parboil::BlockRule block_rule(const Config& c, Kernel kernel);

// cp's runners (runner_table.h): variants() are shared by both APIs; an API
// may add its own (OpenCL's PTX variants, CUDA's cross-run rows).
using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::cp
