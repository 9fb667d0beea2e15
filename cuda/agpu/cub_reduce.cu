// CUB's DeviceReduce::Sum (the CUDA toolkit's own; the vendor reference of
// the reduce workload, harness/workloads/agpu/reduce.h), int32 summed as
// unsigned (modulo 2^32) like gpucmp's kernels.
#include <cub/device/device_reduce.cuh>

#include "check.h"
#include "reduce_kernels.h"

namespace gpucmp::cuda {

namespace {
template <class T>
std::size_t temp_bytes(std::size_t n) {
  std::size_t bytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr),
                               static_cast<T*>(nullptr), n),
        "cub::DeviceReduce::Sum", "reduce/cub temporary storage");
  return bytes;
}

template <class T>
void sum(const void* in, void* out, std::size_t n, void* temp, std::size_t bytes,
         cudaStream_t stream) {
  check(cub::DeviceReduce::Sum(temp, bytes, static_cast<const T*>(in), static_cast<T*>(out), n,
                               stream),
        "cub::DeviceReduce::Sum", "reduce/cub");
}
}  // namespace

std::size_t cub_reduce_temp_bytes(reduce::Type type, std::size_t n) {
  return type == reduce::Type::int32 ? temp_bytes<unsigned>(n) : temp_bytes<float>(n);
}

void launch_cub_reduce(reduce::Type type, const void* in, void* out, std::size_t n, void* temp,
                       std::size_t temp_bytes, cudaStream_t stream) {
  if (type == reduce::Type::int32)
    sum<unsigned>(in, out, n, temp, temp_bytes, stream);
  else
    sum<float>(in, out, n, temp, temp_bytes, stream);
}

}  // namespace gpucmp::cuda
