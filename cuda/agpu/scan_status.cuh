// The tile status words of scan's single-pass kernels (lookback in scan.cu,
// onepass in scan_onepass.cu): one 64-bit word per tile, flag << 32 | the
// value's bits, written and read whole through volatile (single-copy atomic,
// so flag and value arrive together); zeroed before each launch (flag 0: not
// yet published), followed by the 32-bit counter that hands out tile ids.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace gpucmp::cuda::scan_status {

constexpr unsigned kAggregate = 1;  // the tile's own sum is published
constexpr unsigned kPrefix = 2;     // the sum of every word up to the tile's last

__device__ __forceinline__ unsigned to_bits(unsigned x) { return x; }
__device__ __forceinline__ unsigned to_bits(float x) { return __float_as_uint(x); }
template <class T>
__device__ T from_bits(unsigned bits);
template <>
__device__ __forceinline__ unsigned from_bits<unsigned>(unsigned bits) {
  return bits;
}
template <>
__device__ __forceinline__ float from_bits<float>(unsigned bits) {
  return __uint_as_float(bits);
}

__device__ __forceinline__ void publish(unsigned long long* status, size_t tile, unsigned flag,
                                        unsigned bits) {
  *reinterpret_cast<volatile unsigned long long*>(status + tile) =
      (unsigned long long)flag << 32 | bits;
}

// The next tile id, in the order blocks ask (thread 0 of each block).
__device__ __forceinline__ unsigned next_tile(unsigned long long* status, size_t tiles) {
  return atomicAdd(reinterpret_cast<unsigned*>(status + tiles), 1U);
}

}  // namespace gpucmp::cuda::scan_status
