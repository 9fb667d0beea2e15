// mrifhd: Parboil MRI-FHD. ComputeRhoPhi writes RhoPhiR/I into the packed
// k-values; ComputeFH sums one constant-memory tile per launch, one voxel per
// thread, the k loop unrolled x4 by hand. Three forms of that loop
// (mri::KLoop, harness/workloads/parboil/mri.h): the origin's (main variants),
// gpucmp's first form (uniform-tile) and the origin's with each four read one
// step ahead (prefetch); ComputeFHByValue runs the origin's form over a chunk
// of k-values passed by value (mri::KFrom::byvalue). Pairs with
// opencl/parboil/mrifhd.cl.
#include <cstring>

#include "math_mode.h"
#include "parboil_kernels.h"
#include "workloads/parboil/mri.h"

namespace gpucmp::cuda::GPUCMP_MATH_NS {

namespace {

__constant__ KValuesFH ck[mri::kTileFH];

__global__ void ComputeRhoPhi(const float* phiR, const float* phiI, const float* dR,
                              const float* dI, KValuesFH* kv, int numK) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < numK) {
    kv[k].RhoPhiR = phiR[k] * dR[k] + phiI[k] * dI[k];
    kv[k].RhoPhiI = phiR[k] * dI[k] - phiI[k] * dR[k];
  }
}

// One k-value's contribution to (rFH, iFH).
__device__ __forceinline__ void accumulate(const KValuesFH& kv, float sX, float sY, float sZ,
                                           float& rFH, float& iFH) {
  const float expArg = mri::kTwoPi * (kv.Kx * sX + kv.Ky * sY + kv.Kz * sZ);
  const float cArg = cosf(expArg);
  const float sArg = sinf(expArg);
  rFH += kv.RhoPhiR * cArg - kv.RhoPhiI * sArg;
  iFH += kv.RhoPhiI * cArg + kv.RhoPhiR * sArg;
}

// numK: the k-values in this tile (<= kTile); kAt(k) is k-value k of the
// tile: from the constant bank (the kernel as written) or by value from the
// kernel's parameter (whose chunk, kTile k-values, bounds the loop).
template <mri::KLoop kLoop, int kTile = mri::kTileFH, class KAt>
__device__ __forceinline__ void sum_fh(int numK, int numX, const float* x, const float* y,
                                       const float* z, float* outR, float* outI, KAt kAt) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float rFH = outR[t], iFH = outI[t];
  if constexpr (kLoop == mri::KLoop::tile_and_count) {
    int k = 0;  // the numK % 4 leftovers first, then fours
    for (; k < numK % 4; ++k) accumulate(kAt(k), sX, sY, sZ, rFH, iFH);
    for (; k < kTile && k < numK; k += 4) {
      accumulate(kAt(k), sX, sY, sZ, rFH, iFH);
      accumulate(kAt(k + 1), sX, sY, sZ, rFH, iFH);
      accumulate(kAt(k + 2), sX, sY, sZ, rFH, iFH);
      accumulate(kAt(k + 3), sX, sY, sZ, rFH, iFH);
    }
  } else if constexpr (kLoop == mri::KLoop::prefetch) {
    int k = 0;  // the numK % 4 leftovers first, then fours, each loaded one step ahead
    for (; k < numK % 4; ++k) accumulate(kAt(k), sX, sY, sZ, rFH, iFH);
    if (k < numK) {
      KValuesFH n0 = kAt(k), n1 = kAt(k + 1), n2 = kAt(k + 2), n3 = kAt(k + 3);
      for (; k < kTile && k < numK; k += 4) {
        const KValuesFH a0 = n0, a1 = n1, a2 = n2, a3 = n3;
        const int next = min(k + 4, numK - 4);  // the last step reloads its own four
        n0 = kAt(next);
        n1 = kAt(next + 1);
        n2 = kAt(next + 2);
        n3 = kAt(next + 3);
        accumulate(a0, sX, sY, sZ, rFH, iFH);
        accumulate(a1, sX, sY, sZ, rFH, iFH);
        accumulate(a2, sX, sY, sZ, rFH, iFH);
        accumulate(a3, sX, sY, sZ, rFH, iFH);
      }
    }
  } else {
    int k = 0;  // fours, then the leftovers
    for (; k + 3 < numK; k += 4) {
      accumulate(kAt(k), sX, sY, sZ, rFH, iFH);
      accumulate(kAt(k + 1), sX, sY, sZ, rFH, iFH);
      accumulate(kAt(k + 2), sX, sY, sZ, rFH, iFH);
      accumulate(kAt(k + 3), sX, sY, sZ, rFH, iFH);
    }
    for (; k < numK; ++k) accumulate(kAt(k), sX, sY, sZ, rFH, iFH);
  }
  outR[t] = rFH;
  outI[t] = iFH;
}

struct ConstantK {
  __device__ const KValuesFH& operator()(int k) const { return ck[k]; }
};

template <mri::KLoop kLoop>
__global__ void ComputeFH(int numK, int numX, const float* x, const float* y, const float* z,
                          float* outR, float* outI) {
  sum_fh<kLoop>(numK, numX, x, y, z, outR, outI, ConstantK{});
}

// The by-value form, as mriq.cu's: a chunk of k-values as one
// __grid_constant__ argument, mri::byvalue_k_cuda records (the tile, 512,
// from 32764 bytes of parameters).
constexpr int kChunk = mri::byvalue_k_cuda(mri::Kind::fhd);
struct KChunkFH {
  KValuesFH k[kChunk];
};
static_assert(sizeof(KChunkFH) == sizeof(float) * mri::record_floats(mri::Kind::fhd) * kChunk);

struct ParameterK {
  const KChunkFH& chunk;
  __device__ const KValuesFH& operator()(int k) const { return chunk.k[k]; }
};

__global__ void ComputeFHByValue(int numK, int numX, const float* x, const float* y, const float* z,
                                 float* outR, float* outI, const __grid_constant__ KChunkFH chunk) {
  sum_fh<mri::KLoop::tile_and_count, kChunk>(numK, numX, x, y, z, outR, outI, ParameterK{chunk});
}

void rho_phi(const float* phiR, const float* phiI, const float* dR, const float* dI, KValuesFH* kv,
             int numK, cudaStream_t s) {
  ComputeRhoPhi<<<(numK + mri::kBlock - 1) / mri::kBlock, mri::kBlock, 0, s>>>(phiR, phiI, dR, dI,
                                                                               kv, numK);
}

cudaError_t set_k(const KValuesFH* device_kv, int count, cudaStream_t s) {
  return cudaMemcpyToSymbolAsync(ck, device_kv, sizeof(KValuesFH) * count, 0,
                                 cudaMemcpyDeviceToDevice, s);
}

void compute_fh(mri::KLoop loop, int numK, int numX, const float* x, const float* y, const float* z,
                float* outR, float* outI, int block, cudaStream_t s) {
  const int blocks = (numX + block - 1) / block;
  if (loop == mri::KLoop::tile_and_count)
    ComputeFH<mri::KLoop::tile_and_count><<<blocks, block, 0, s>>>(numK, numX, x, y, z, outR, outI);
  else if (loop == mri::KLoop::count_only)
    ComputeFH<mri::KLoop::count_only><<<blocks, block, 0, s>>>(numK, numX, x, y, z, outR, outI);
  else
    ComputeFH<mri::KLoop::prefetch><<<blocks, block, 0, s>>>(numK, numX, x, y, z, outR, outI);
}

void compute_fh_byvalue(int numK, int numX, const float* x, const float* y, const float* z,
                        float* outR, float* outI, const float* chunk, int block, cudaStream_t s) {
  KChunkFH arg;
  std::memcpy(&arg, chunk, sizeof arg);
  const int blocks = (numX + block - 1) / block;
  ComputeFHByValue<<<blocks, block, 0, s>>>(numK, numX, x, y, z, outR, outI, arg);
}

const void* compute_kernel_byvalue() { return reinterpret_cast<const void*>(ComputeFHByValue); }

const void* compute_kernel(mri::KLoop loop) {
  if (loop == mri::KLoop::tile_and_count)
    return reinterpret_cast<const void*>(ComputeFH<mri::KLoop::tile_and_count>);
  if (loop == mri::KLoop::count_only)
    return reinterpret_cast<const void*>(ComputeFH<mri::KLoop::count_only>);
  return reinterpret_cast<const void*>(ComputeFH<mri::KLoop::prefetch>);
}

}  // namespace

const MriFhdKernels kMriFhd = {
    rho_phi, set_k, compute_fh, compute_kernel, compute_fh_byvalue, compute_kernel_byvalue};

}  // namespace gpucmp::cuda::GPUCMP_MATH_NS
