// Launchers of the Parboil kernels (cp.cu, mriq.cu, mrifhd.cu), one table per
// math mode: precise:: is built with the default flags, fast:: with --use_fast_math.
#pragma once
#include <cuda_runtime.h>

#include "workloads/parboil/mri.h"

namespace gpucmp::cuda {

struct CpKernels {
  // Copies `count` atoms (float4) from device memory into constant memory.
  cudaError_t (*set_atoms)(const float* device_atoms, int count, cudaStream_t stream);
  // One launch over the nx x ny grid, accumulating the atoms in constant memory.
  void (*launch)(bool unrollx8, int count, float spacing, float* energy, int nx, int ny,
                 cudaStream_t stream);
};

// {Kx, Ky, Kz, PhiMag} and {Kx, Ky, Kz, RhoPhiR, RhoPhiI} as in Parboil.
struct KValuesQ {
  float Kx, Ky, Kz, PhiMag;
};
struct KValuesFH {
  float Kx, Ky, Kz, RhoPhiR, RhoPhiI;
};

struct MriQKernels {
  // kv[k].PhiMag = phiR[k]^2 + phiI[k]^2
  void (*phi_mag)(const float* phiR, const float* phiI, KValuesQ* kv, int numK, cudaStream_t);
  cudaError_t (*set_k)(const KValuesQ* device_kv, int count, cudaStream_t);  // into constant memory
  void (*compute_q)(mri::KLoop loop, int numK, int numX, const float* x, const float* y,
                    const float* z, float* Qr, float* Qi, cudaStream_t);
};

struct MriFhdKernels {
  // kv[k].RhoPhiR/I from phi and d
  void (*rho_phi)(const float* phiR, const float* phiI, const float* dR, const float* dI,
                  KValuesFH* kv, int numK, cudaStream_t);
  cudaError_t (*set_k)(const KValuesFH* device_kv, int count, cudaStream_t);
  void (*compute_fh)(mri::KLoop loop, int numK, int numX, const float* x, const float* y,
                     const float* z, float* outR, float* outI, cudaStream_t);
};

namespace precise {
extern const CpKernels kCp;
extern const MriQKernels kMriQ;
extern const MriFhdKernels kMriFhd;
}  // namespace precise
namespace fast {
extern const CpKernels kCp;
extern const MriQKernels kMriQ;
extern const MriFhdKernels kMriFhd;
}  // namespace fast

inline const CpKernels& cp_kernels(bool fast_math) { return fast_math ? fast::kCp : precise::kCp; }
inline const MriQKernels& mriq_kernels(bool fast_math) {
  return fast_math ? fast::kMriQ : precise::kMriQ;
}
inline const MriFhdKernels& mrifhd_kernels(bool fast_math) {
  return fast_math ? fast::kMriFhd : precise::kMriFhd;
}

}  // namespace gpucmp::cuda
