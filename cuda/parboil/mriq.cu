// mriq: Parboil MRI-Q. ComputePhiMag writes PhiMag into the packed k-values;
// ComputeQ sums one constant-memory tile of k-values per launch, one voxel per
// thread, the k loop unrolled x2 by hand. Two forms of that loop
// (mri::KLoop, harness/workloads/parboil/mri.h): the origin's (main variants) and
// gpucmp's first form (uniform-tile). Pairs with opencl/parboil/mriq.cl.
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

// numK: the k-values in this tile (<= kTileQ).
template <mri::KLoop kLoop>
__global__ void ComputeQ(int numK, int numX, const float* x, const float* y, const float* z,
                         float* Qr, float* Qi) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float sQr = Qr[t], sQi = Qi[t];
  if constexpr (kLoop == mri::KLoop::tile_and_count) {
    int k = numK % 2;  // the odd one first, then pairs
    if (k) accumulate(ck[0], sX, sY, sZ, sQr, sQi);
    for (; k < mri::kTileQ && k < numK; k += 2) {
      accumulate(ck[k], sX, sY, sZ, sQr, sQi);
      accumulate(ck[k + 1], sX, sY, sZ, sQr, sQi);
    }
  } else {
    int k = 0;  // pairs, then the odd one
    for (; k + 1 < numK; k += 2) {
      accumulate(ck[k], sX, sY, sZ, sQr, sQi);
      accumulate(ck[k + 1], sX, sY, sZ, sQr, sQi);
    }
    if (k < numK) accumulate(ck[k], sX, sY, sZ, sQr, sQi);
  }
  Qr[t] = sQr;
  Qi[t] = sQi;
}

void phi_mag(const float* phiR, const float* phiI, KValuesQ* kv, int numK, cudaStream_t s) {
  ComputePhiMag<<<(numK + mri::kBlock - 1) / mri::kBlock, mri::kBlock, 0, s>>>(phiR, phiI, kv,
                                                                               numK);
}

cudaError_t set_k(const KValuesQ* device_kv, int count, cudaStream_t s) {
  return cudaMemcpyToSymbolAsync(ck, device_kv, sizeof(KValuesQ) * count, 0,
                                 cudaMemcpyDeviceToDevice, s);
}

void compute_q(mri::KLoop loop, int numK, int numX, const float* x, const float* y, const float* z,
               float* Qr, float* Qi, int block, cudaStream_t s) {
  const int blocks = (numX + block - 1) / block;
  if (loop == mri::KLoop::tile_and_count)
    ComputeQ<mri::KLoop::tile_and_count><<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi);
  else
    ComputeQ<mri::KLoop::count_only><<<blocks, block, 0, s>>>(numK, numX, x, y, z, Qr, Qi);
}

const void* compute_kernel(mri::KLoop loop) {
  return loop == mri::KLoop::tile_and_count
             ? reinterpret_cast<const void*>(ComputeQ<mri::KLoop::tile_and_count>)
             : reinterpret_cast<const void*>(ComputeQ<mri::KLoop::count_only>);
}

}  // namespace

const MriQKernels kMriQ = {phi_mag, set_k, compute_q, compute_kernel};

}  // namespace gpucmp::cuda::GPUCMP_MATH_NS
