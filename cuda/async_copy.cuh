// cp.async (sm_80 and later): global-to-shared copies that run while the
// thread goes on, in commit groups a thread waits for
// (cuda/advection/advection_async.cu's ring, cuda/agpu/scan_onepass.cu's
// next tile). After wait_copies, a thread sees its own copies; others' need
// a barrier (__syncwarp / __syncthreads).
#pragma once
#include <cuda_runtime.h>

namespace gpucmp::cuda {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void copy_async16(void* to, const void* from) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(to)), "l"(from)
               : "memory");
}
__device__ __forceinline__ void copy_async8(void* to, const void* from) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(shared_address(to)), "l"(from)
               : "memory");
}
__device__ __forceinline__ void commit_copies() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}
// Wait until at most `Pending` committed groups are still copying.
template <int Pending>
__device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

}  // namespace gpucmp::cuda
