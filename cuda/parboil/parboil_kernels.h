// Launchers of the Parboil kernels (cp.cu, mriq.cu, mrifhd.cu), one table per
// math mode: precise:: is built with the default flags, fast:: with --use_fast_math.
#pragma once
#include <cuda_runtime.h>

#include "workloads/parboil/cp.h"
#include "workloads/parboil/mri.h"
#include "workloads/parboil/mri_byvalue.h"

namespace gpucmp::cuda {

// The block of a launch is the row's (cp::Variant::local, mri::Variant::local):
// the kernels read it at run time, so every size runs the same code.
struct CpKernels {
  // Copies `count` atoms (float4) from device memory into constant memory.
  cudaError_t (*set_atoms)(const float* device_atoms, int count, cudaStream_t stream);
  // One launch over the nx x ny grid in blocks of block_x x block_y threads
  // (tiling it: cp::block_rule), accumulating the atoms in constant memory.
  void (*launch)(bool unrollx8, int count, float spacing, float* energy, int nx, int ny,
                 int block_x, int block_y, cudaStream_t stream);
  // The kernel, for cudaFuncGetAttributes.
  const void* (*kernel)(bool unrollx8);
  // The -ldg control: unrollx8 reading `count` atoms (float4) from `atoms` in
  // device memory through the read-only path (LDG.E.128.CONSTANT) instead of
  // the constant bank; and its kernel.
  void (*launch_ldg)(int count, float spacing, float* energy, const float* atoms, int nx, int ny,
                     int block_x, int block_y, cudaStream_t stream);
  const void* (*kernel_ldg)();
  // The by-value form (cp::Form::byvalue): unrollx8 over `count` atoms of
  // `chunk`, cp::kByValueAtoms float4 in host memory passed as the kernel's
  // __grid_constant__ argument.
  void (*launch_byvalue)(int count, float spacing, float* energy, const float* chunk, int nx,
                         int ny, int block_x, int block_y, cudaStream_t stream);
  // The prefetch form: unrollx8 over the atoms in constant memory (set_atoms),
  // each read one step ahead.
  void (*launch_prefetch)(int count, float spacing, float* energy, int nx, int ny, int block_x,
                          int block_y, cudaStream_t stream);
  // unrollx8's kernel of a form (constant: cp_unrollx8), for cudaFuncGetAttributes.
  const void* (*kernel_form)(cp::Form form);
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
  // The voxel kernel over numX voxels in blocks of `block` threads (grid rounded up).
  void (*compute_q)(mri::KLoop loop, int numK, int numX, const float* x, const float* y,
                    const float* z, float* Qr, float* Qi, int block, cudaStream_t);
  const void* (*compute_kernel)(mri::KLoop loop);  // for cudaFuncGetAttributes
  // The -ldg control: the voxel kernel reading the tile's `numK` k-values from
  // `kv` in device memory through the read-only path (LDG.E.128.CONSTANT)
  // instead of the constant bank; and its kernel.
  void (*compute_q_ldg)(mri::KLoop loop, int numK, int numX, const float* x, const float* y,
                        const float* z, float* Qr, float* Qi, const KValuesQ* kv, int block,
                        cudaStream_t);
  const void* (*compute_kernel_ldg)(mri::KLoop loop);
  // The by-value form (mri::KFrom::byvalue): the voxel kernel over `numK`
  // k-values of `chunk`, mri::byvalue_k_cuda(Kind::q) records in host memory
  // passed as its __grid_constant__ argument; and its kernel.
  void (*compute_q_byvalue)(int numK, int numX, const float* x, const float* y, const float* z,
                            float* Qr, float* Qi, const float* chunk, int block, cudaStream_t);
  const void* (*compute_kernel_byvalue)();
};

struct MriFhdKernels {
  // kv[k].RhoPhiR/I from phi and d
  void (*rho_phi)(const float* phiR, const float* phiI, const float* dR, const float* dI,
                  KValuesFH* kv, int numK, cudaStream_t);
  cudaError_t (*set_k)(const KValuesFH* device_kv, int count, cudaStream_t);
  void (*compute_fh)(mri::KLoop loop, int numK, int numX, const float* x, const float* y,
                     const float* z, float* outR, float* outI, int block, cudaStream_t);
  const void* (*compute_kernel)(mri::KLoop loop);  // for cudaFuncGetAttributes
  // The by-value form, as MriQKernels' (mri::byvalue_k_cuda(Kind::fhd) records).
  void (*compute_fh_byvalue)(int numK, int numX, const float* x, const float* y, const float* z,
                             float* outR, float* outI, const float* chunk, int block, cudaStream_t);
  const void* (*compute_kernel_byvalue)();
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
