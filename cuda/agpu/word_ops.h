// The operators of the AGPU workloads' words (harness/workloads/agpu/
// word_type.h) for the CUDA kernels of reduce.cu and scan.cu: each names its
// word T (and T4, four words loaded at once), its identity and combine(l, r),
// l's words coming first. Sum32 and SumFloat add; Affine16 is the
// non-commutative 2x2 matrix product of word_type.h.
#pragma once
#include <cuda_runtime.h>

#include "workloads/agpu/word_type.h"

namespace gpucmp::cuda::agpu_ops {

struct Sum32 {  // int32, summed as unsigned: modulo 2^32
  using T = unsigned;
  using T4 = uint4;
  static __device__ __forceinline__ T identity() { return 0U; }
  static __device__ __forceinline__ T combine(T l, T r) { return l + r; }
};

struct SumFloat {
  using T = float;
  using T4 = float4;
  static __device__ __forceinline__ T identity() { return 0.0F; }
  static __device__ __forceinline__ T combine(T l, T r) { return l + r; }
};

// agpu::affine_product, for the device (the validation against the host's
// product checks that the two agree).
struct Affine16 {
  using T = unsigned;
  using T4 = uint4;
  static __device__ __forceinline__ T identity() { return agpu::kAffineIdentity; }
  static __device__ __forceinline__ T combine(T l, T r) {
    const T al = l >> 16, bl = l & 0xffffU, ar = r >> 16, br = r & 0xffffU;
    return ((al * ar) & 0xffffU) << 16 | ((al * br + bl) & 0xffffU);
  }
  // The operator object of CUB's DeviceScan::InclusiveScan.
  __device__ __forceinline__ T operator()(T l, T r) const { return combine(l, r); }
};

// Calls f(Op{}) with the operator of `type`.
template <class F>
void with_op(agpu::Type type, F f) {
  switch (type) {
    case agpu::Type::int32:
      return f(Sum32{});
    case agpu::Type::affine16:
      return f(Affine16{});
    case agpu::Type::f32:
      break;
  }
  return f(SumFloat{});
}

}  // namespace gpucmp::cuda::agpu_ops
