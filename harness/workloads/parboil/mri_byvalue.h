// MRI-Q and MRI-FHD with their k-values passed by value (mri::KFrom::byvalue,
// variants precise-byvalue and fast-byvalue): each launch of the voxel kernel
// takes one chunk of k-value records as a single kernel argument, the chunk's
// size from the device's parameter limit (byvalue_chunk.h, the rule cp's
// by-value form uses), which NVIDIA puts in the parameters' constant bank,
// where both APIs' kernels read it (CUDA's a __grid_constant__ parameter).
// The kernels: ComputeQByValue / ComputeFHByValue
// (opencl/parboil/mriq.cl, mrifhd.cl with -DK_BYVALUE=N; cuda/parboil/mriq.cu,
// mrifhd.cu with N = byvalue_k_cuda).
#pragma once
#include <vector>

#include "../../byvalue_chunk.h"
#include "../../device_info.h"
#include "mri.h"

namespace gpucmp::mri {

// The by-value kernels' other arguments before the chunk, in bytes: numK and
// numX (int), x, y, z and the two outputs (pointers, counted as 8 bytes each).
// The chunk (4-byte aligned records) follows at offset 48.
constexpr long long kByValueOtherBytes = 4 + 4 + 5 * 8;

// One record: {Kx, Ky, Kz, PhiMag} (Q) or {Kx, Ky, Kz, RhoPhiR, RhoPhiI} (FHD).
constexpr int record_floats(Kind kind) { return kind == Kind::q ? 4 : 5; }

// What a by-value launch passes: at most the constant-memory tile of the
// as-written form (kTileQ, kTileFH), so that no launch takes more k-values than
// the as-written form's.
constexpr byvalue::Shape byvalue_shape(Kind kind) {
  return {kind == Kind::q ? "mriq by value" : "mrifhd by value", "k-value", kByValueOtherBytes,
          4LL * record_floats(kind), kind == Kind::q ? kTileQ : kTileFH};
}

// k-values of one by-value launch where a kernel's arguments may take
// `parameter_bytes`: the largest count whose chunk fits beside the other
// arguments (not rounded to a power of two: the loop is the as-written one,
// bounded by the chunk), at most the tile; 0 when not one fits.
constexpr int byvalue_k(Kind kind, long long parameter_bytes) {
  return byvalue::records_fitting(parameter_bytes, byvalue_shape(kind));
}
// CUDA's chunks, array sizes compiled into mriq.cu and mrifhd.cu: from CUDA's
// parameter limit, the one cp's CUDA chunk is sized from; each reaches its
// tile (2044 and 1635 would fit), as NVIDIA's OpenCL limit gives, so that both
// APIs take the same chunk on NVIDIA's GPUs: 1024 (Q), 512 (FHD).
constexpr int byvalue_k_cuda(Kind kind) { return byvalue_k(kind, byvalue::kCudaParameterBytes); }
static_assert(byvalue_k_cuda(Kind::q) == kTileQ && byvalue_k_cuda(Kind::fhd) == kTileFH);

// The chunk of a by-value launch on `dev` (byvalue::records_on: from
// dev.max_parameter_bytes, byvalue_k_cuda where the API states none).
// Throws Unavailable when not one k-value fits.
int byvalue_k(Kind kind, const DeviceInfo& dev);

// The commands one timed launch of `v` enqueues for numK k-values on `dev`:
// as written, the per-k kernel, the two outputs cleared, then per tile a copy
// into constant memory and a kernel; by value, the two outputs cleared, then a
// kernel per chunk (no per-k kernel, no copy: the per-k factors are host work
// of the launch, fill_byvalue_records).
int commands_per_launch(Kind kind, int numK, const Variant& v, const DeviceInfo& dev);

// The records the by-value launches pass, `per_launch` to a kernel argument,
// written into `out` (resized to whole chunks; the runners keep one buffer and
// fill it at the start of every timed launch, so that the per-k factors are
// computed inside the timed region, as the as-written form's per-k kernel is):
// every k-value's record with its per-k factors computed on the host in float
// by the per-k kernels' formulas (PhiMag = phiR^2 + phiI^2; RhoPhiR = phiR dR +
// phiI dI, RhoPhiI = phiR dI - phiI dR; rounded after each product and sum,
// where both devices' kernels contract a product and sum into one FFMA, so a
// factor may differ from the as-written rows' by an ulp; both APIs get the
// same records), then zero records up to a whole number of chunks, so that
// the last launch passes as many bytes as the others (it reads only its count).
// The as-written form's records, uploaded once: each k-value's Kx, Ky, Kz, its
// per-k factors zero, for the per-k kernel of every timed launch to fill on
// the device (both APIs' runners upload these).
std::vector<float> unfactored_records(const Dataset& d, Kind kind);

void fill_byvalue_records(const Dataset& d, Kind kind, int per_launch, std::vector<float>& out);
std::vector<float> byvalue_records(const Dataset& d, Kind kind, int per_launch);

}  // namespace gpucmp::mri
