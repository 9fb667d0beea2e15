// mriq: Parboil MRI-Q. ComputePhiMag writes PhiMag into the packed k-values;
// ComputeQ sums one constant-memory tile of k-values per launch, one voxel per
// thread, the k loop unrolled x2 by hand. Pairs with opencl/kernels/mriq.cl.
#include "math_mode.h"
#include "parboil_kernels.h"
#include "workloads/mri.h"

namespace gpucmp::cuda::GPUCMP_MATH_NS {

namespace {

__constant__ KValuesQ ck[mri::kTileQ];

__global__ void ComputePhiMag(const float* phiR, const float* phiI, KValuesQ* kv, int numK) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < numK) kv[k].PhiMag = phiR[k] * phiR[k] + phiI[k] * phiI[k];
}

__global__ void ComputeQ(int numK, int numX, const float* x, const float* y, const float* z,
                         float* Qr, float* Qi) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float sQr = Qr[t], sQi = Qi[t];
  int k = 0;
  for (; k + 1 < numK; k += 2) {
    const float expArg0 = mri::kTwoPi * (ck[k].Kx * sX + ck[k].Ky * sY + ck[k].Kz * sZ);
    sQr += ck[k].PhiMag * cosf(expArg0);
    sQi += ck[k].PhiMag * sinf(expArg0);
    const float expArg1 =
        mri::kTwoPi * (ck[k + 1].Kx * sX + ck[k + 1].Ky * sY + ck[k + 1].Kz * sZ);
    sQr += ck[k + 1].PhiMag * cosf(expArg1);
    sQi += ck[k + 1].PhiMag * sinf(expArg1);
  }
  if (k < numK) {
    const float expArg = mri::kTwoPi * (ck[k].Kx * sX + ck[k].Ky * sY + ck[k].Kz * sZ);
    sQr += ck[k].PhiMag * cosf(expArg);
    sQi += ck[k].PhiMag * sinf(expArg);
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

void compute_q(int numK, int numX, const float* x, const float* y, const float* z, float* Qr,
               float* Qi, cudaStream_t s) {
  ComputeQ<<<(numX + mri::kBlock - 1) / mri::kBlock, mri::kBlock, 0, s>>>(numK, numX, x, y, z,
                                                                         Qr, Qi);
}

}  // namespace

const MriQKernels kMriQ = {phi_mag, set_k, compute_q};

}  // namespace gpucmp::cuda::GPUCMP_MATH_NS
