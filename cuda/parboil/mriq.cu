// mriq: Parboil MRI-Q. ComputePhiMag writes PhiMag into the packed k-values;
// ComputeQ sums one constant-memory tile of k-values per launch, one voxel per
// thread, the k loop unrolled x2 by hand. Three forms of that loop
// (mri::KLoop, harness/workloads/parboil/mri.h): the origin's (main variants),
// gpucmp's first form (uniform-tile) and the origin's with each pair read one
// step ahead (prefetch); ComputeQByValue runs the origin's form over a chunk of
// k-values passed by value (mri::KFrom::byvalue). Pairs with
// opencl/parboil/mriq.cl.
#include <cstring>

#include "math_mode.h"
#include "parboil_kernels.h"
#include "workloads/parboil/mri.h"

namespace gpucmp::cuda::GPUCMP_MATH_NS {

namespace {

__constant__ KValuesQ ck[mri::kTileQ];

__global__ void ComputePhiMag(const float* phiR, const float* phiI, KValuesQ* kv, int numK) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < numK) kv[k].PhiMag = phiR[k] * phiR[k] + phiI[k] * phiI[k];
}

__device__ __forceinline__ void accumulate(const KValuesQ& kv, float sX, float sY, float sZ,
                                           float& sQr, float& sQi) {
  const float expArg = mri::kTwoPi * (kv.Kx * sX + kv.Ky * sY + kv.Kz * sZ);
  sQr += kv.PhiMag * cosf(expArg);
  sQi += kv.PhiMag * sinf(expArg);
}

// numK: the k-values in this tile (<= kTile); kAt(k) is k-value k of the
// tile: from the constant bank (the kernel as written), in the -ldg control
// from global memory through the read-only path, by value from the kernel's
// parameter (whose chunk, kTile k-values, bounds the loop).
template <mri::KLoop kLoop, int kTile = mri::kTileQ, class KAt>
__device__ __forceinline__ void compute_q(int numK, int numX, const float* x, const float* y,
                                          const float* z, float* Qr, float* Qi, KAt kAt) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float sQr = Qr[t], sQi = Qi[t];
  if constexpr (kLoop == mri::KLoop::tile_and_count) {
    int k = numK % 2;  // the odd one first, then pairs
    if (k) accumulate(kAt(0), sX, sY, sZ, sQr, sQi);
    for (; k < kTile && k < numK; k += 2) {
      accumulate(kAt(k), sX, sY, sZ, sQr, sQi);
      accumulate(kAt(k + 1), sX, sY, sZ, sQr, sQi);
    }
  } else if constexpr (kLoop == mri::KLoop::count_only) {
    int k = 0;  // pairs, then the odd one
    for (; k + 1 < numK; k += 2) {
      accumulate(kAt(k), sX, sY, sZ, sQr, sQi);
      accumulate(kAt(k + 1), sX, sY, sZ, sQr, sQi);
    }
    if (k < numK) accumulate(kAt(k), sX, sY, sZ, sQr, sQi);
  } else {
    int k = numK % 2;  // the odd one first, then pairs, each loaded one step ahead
    if (k) accumulate(kAt(0), sX, sY, sZ, sQr, sQi);
    if (k < numK) {
      KValuesQ n0 = kAt(k), n1 = kAt(k + 1);
      for (; k < kTile && k < numK; k += 2) {
        const KValuesQ a0 = n0, a1 = n1;
        const int next = min(k + 2, numK - 2);  // the last step reloads its own pair
        n0 = kAt(next);
        n1 = kAt(next + 1);
        accumulate(a0, sX, sY, sZ, sQr, sQi);
        accumulate(a1, sX, sY, sZ, sQr, sQi);
      }
    }
  }
  Qr[t] = sQr;
  Qi[t] = sQi;
}

struct ConstantK {
  __device__ const KValuesQ& operator()(int k) const { return ck[k]; }
};

// __ldg: ld.global.nc, LDG.E.128.CONSTANT in the SASS, the load NVIDIA's
// OpenCL JIT makes of a __constant kernel argument.
struct GlobalK {
  const float4* __restrict__ kv;
  __device__ KValuesQ operator()(int k) const {
    const float4 v = __ldg(kv + k);
    return {v.x, v.y, v.z, v.w};
  }
};

// The by-value form: a chunk of k-values as one kernel argument, read from the
// parameters' constant bank (__grid_constant__: no copy into local memory);
// its array size is the chunk every NVIDIA launch of the form takes on both
// APIs (mri::byvalue_k_cuda: the tile, 1024, from 32764 bytes of parameters).
constexpr int kChunk = mri::byvalue_k_cuda(mri::Kind::q);
struct KChunkQ {
  KValuesQ k[kChunk];
};
static_assert(sizeof(KChunkQ) == sizeof(float) * mri::record_floats(mri::Kind::q) * kChunk);

struct ParameterK {
  const KChunkQ& chunk;
  __device__ const KValuesQ& operator()(int k) const { return chunk.k[k]; }
};

template <mri::KLoop kLoop>
__global__ void ComputeQ(int numK, int numX, const float* x, const float* y, const float* z,
                         float* Qr, float* Qi) {
  compute_q<kLoop>(numK, numX, x, y, z, Qr, Qi, ConstantK{});
}

template <mri::KLoop kLoop>
__global__ void ComputeQLdg(int numK, int numX, const float* x, const float* y, const float* z,
                            float* Qr, float* Qi, const float4* __restrict__ kv) {
  compute_q<kLoop>(numK, numX, x, y, z, Qr, Qi, GlobalK{kv});
}

__global__ void ComputeQByValue(int numK, int numX, const float* x, const float* y, const float* z,
                                float* Qr, float* Qi, const __grid_constant__ KChunkQ chunk) {
  compute_q<mri::KLoop::tile_and_count, kChunk>(numK, numX, x, y, z, Qr, Qi, ParameterK{chunk});
}

void phi_mag(const float* phiR, const float* phiI, KValuesQ* kv, int numK, cudaStream_t s) {
  ComputePhiMag<<<(numK + mri::kBlock - 1) / mri::kBlock, mri::kBlock, 0, s>>>(phiR, phiI, kv,
                                                                               numK);
}

cudaError_t set_k(const KValuesQ* device_kv, int count, cudaStream_t s) {
  return cudaMemcpyToSymbolAsync(ck, device_kv, sizeof(KValuesQ) * count, 0,
                                 cudaMemcpyDeviceToDevice, s);
}

void launch_q(mri::KLoop loop, int numK, int numX, const float* x, const float* y, const float* z,
              float* Qr, float* Qi, int block, cudaStream_t s) {
  const int blocks = (numX + block - 1) / block;
  if (loop == mri::KLoop::tile_and_count)
    ComputeQ<mri::KLoop::tile_and_count><<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi);
  else if (loop == mri::KLoop::count_only)
    ComputeQ<mri::KLoop::count_only><<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi);
  else
    ComputeQ<mri::KLoop::prefetch><<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi);
}

void compute_q_ldg(mri::KLoop loop, int numK, int numX, const float* x, const float* y,
                   const float* z, float* Qr, float* Qi, const KValuesQ* kv, int block,
                   cudaStream_t s) {
  const int blocks = (numX + block - 1) / block;
  const auto* k4 = reinterpret_cast<const float4*>(kv);
  if (loop == mri::KLoop::tile_and_count)
    ComputeQLdg<mri::KLoop::tile_and_count>
        <<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi, k4);
  else if (loop == mri::KLoop::count_only)
    ComputeQLdg<mri::KLoop::count_only><<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi, k4);
  else
    ComputeQLdg<mri::KLoop::prefetch><<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi, k4);
}

const void* compute_kernel(mri::KLoop loop) {
  if (loop == mri::KLoop::tile_and_count)
    return reinterpret_cast<const void*>(ComputeQ<mri::KLoop::tile_and_count>);
  if (loop == mri::KLoop::count_only)
    return reinterpret_cast<const void*>(ComputeQ<mri::KLoop::count_only>);
  return reinterpret_cast<const void*>(ComputeQ<mri::KLoop::prefetch>);
}

void compute_q_byvalue(int numK, int numX, const float* x, const float* y, const float* z,
                       float* Qr, float* Qi, const float* chunk, int block, cudaStream_t s) {
  KChunkQ arg;
  std::memcpy(&arg, chunk, sizeof arg);
  const int blocks = (numX + block - 1) / block;
  ComputeQByValue<<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi, arg);
}

const void* compute_kernel_byvalue() { return reinterpret_cast<const void*>(ComputeQByValue); }

const void* compute_kernel_ldg(mri::KLoop loop) {
  if (loop == mri::KLoop::tile_and_count)
    return reinterpret_cast<const void*>(ComputeQLdg<mri::KLoop::tile_and_count>);
  if (loop == mri::KLoop::count_only)
    return reinterpret_cast<const void*>(ComputeQLdg<mri::KLoop::count_only>);
  return reinterpret_cast<const void*>(ComputeQLdg<mri::KLoop::prefetch>);
}

}  // namespace

const MriQKernels kMriQ = {phi_mag,           set_k,
                           launch_q,          compute_kernel,
                           compute_q_ldg,     compute_kernel_ldg,
                           compute_q_byvalue, compute_kernel_byvalue};

}  // namespace gpucmp::cuda::GPUCMP_MATH_NS
