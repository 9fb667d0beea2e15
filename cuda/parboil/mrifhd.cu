// mrifhd: Parboil MRI-FHD. ComputeRhoPhi writes RhoPhiR/I into the packed
// k-values; ComputeFH sums one constant-memory tile per launch, one voxel per
// thread, the k loop unrolled x4 by hand. Three forms of that loop
// (mri::KLoop, harness/workloads/parboil/mri.h): the origin's (main variants),
// gpucmp's first form (uniform-tile) and the origin's with each four read one
// step ahead (prefetch). Pairs with opencl/parboil/mrifhd.cl.
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

// numK: the k-values in this tile (<= kTileFH).
template <mri::KLoop kLoop>
__global__ void ComputeFH(int numK, int numX, const float* x, const float* y, const float* z,
                          float* outR, float* outI) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float rFH = outR[t], iFH = outI[t];
  if constexpr (kLoop == mri::KLoop::tile_and_count) {
    int k = 0;  // the numK % 4 leftovers first, then fours
    for (; k < numK % 4; ++k) accumulate(ck[k], sX, sY, sZ, rFH, iFH);
    for (; k < mri::kTileFH && k < numK; k += 4) {
      accumulate(ck[k], sX, sY, sZ, rFH, iFH);
      accumulate(ck[k + 1], sX, sY, sZ, rFH, iFH);
      accumulate(ck[k + 2], sX, sY, sZ, rFH, iFH);
      accumulate(ck[k + 3], sX, sY, sZ, rFH, iFH);
    }
  } else if constexpr (kLoop == mri::KLoop::prefetch) {
    int k = 0;  // the numK % 4 leftovers first, then fours, each loaded one step ahead
    for (; k < numK % 4; ++k) accumulate(ck[k], sX, sY, sZ, rFH, iFH);
    if (k < numK) {
      KValuesFH n0 = ck[k], n1 = ck[k + 1], n2 = ck[k + 2], n3 = ck[k + 3];
      for (; k < mri::kTileFH && k < numK; k += 4) {
        const KValuesFH a0 = n0, a1 = n1, a2 = n2, a3 = n3;
        const int next = min(k + 4, numK - 4);  // the last step reloads its own four
        n0 = ck[next];
        n1 = ck[next + 1];
        n2 = ck[next + 2];
        n3 = ck[next + 3];
        accumulate(a0, sX, sY, sZ, rFH, iFH);
        accumulate(a1, sX, sY, sZ, rFH, iFH);
        accumulate(a2, sX, sY, sZ, rFH, iFH);
        accumulate(a3, sX, sY, sZ, rFH, iFH);
      }
    }
  } else {
    int k = 0;  // fours, then the leftovers
    for (; k + 3 < numK; k += 4) {
      accumulate(ck[k], sX, sY, sZ, rFH, iFH);
      accumulate(ck[k + 1], sX, sY, sZ, rFH, iFH);
      accumulate(ck[k + 2], sX, sY, sZ, rFH, iFH);
      accumulate(ck[k + 3], sX, sY, sZ, rFH, iFH);
    }
    for (; k < numK; ++k) accumulate(ck[k], sX, sY, sZ, rFH, iFH);
  }
  outR[t] = rFH;
  outI[t] = iFH;
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

const void* compute_kernel(mri::KLoop loop) {
  if (loop == mri::KLoop::tile_and_count)
    return reinterpret_cast<const void*>(ComputeFH<mri::KLoop::tile_and_count>);
  if (loop == mri::KLoop::count_only)
    return reinterpret_cast<const void*>(ComputeFH<mri::KLoop::count_only>);
  return reinterpret_cast<const void*>(ComputeFH<mri::KLoop::prefetch>);
}

}  // namespace

const MriFhdKernels kMriFhd = {rho_phi, set_k, compute_fh, compute_kernel};

}  // namespace gpucmp::cuda::GPUCMP_MATH_NS
