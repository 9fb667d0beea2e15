// CUB's DeviceScan::InclusiveSum (the CUDA toolkit's own; the vendor
// reference of the scan workload, harness/workloads/agpu/scan.h), int32
// summed as unsigned (modulo 2^32) like gpucmp's kernels.
#include <cub/device/device_scan.cuh>

#include "check.h"
#include "scan_kernels.h"

namespace gpucmp::cuda {

namespace {
template <class T>
std::size_t temp_bytes(std::size_t n) {
  std::size_t bytes = 0;
  check(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr),
                                      static_cast<T*>(nullptr), n),
        "cub::DeviceScan::InclusiveSum", "scan/cub temporary storage");
  return bytes;
}

template <class T>
void inclusive_sum(const void* in, void* out, std::size_t n, void* temp, std::size_t bytes,
                   cudaStream_t stream) {
  check(cub::DeviceScan::InclusiveSum(temp, bytes, static_cast<const T*>(in), static_cast<T*>(out),
                                      n, stream),
        "cub::DeviceScan::InclusiveSum", "scan/cub");
}
}  // namespace

std::size_t cub_scan_temp_bytes(scan::Type type, std::size_t n) {
  return type == scan::Type::int32 ? temp_bytes<unsigned>(n) : temp_bytes<float>(n);
}

void launch_cub_scan(scan::Type type, const void* in, void* out, std::size_t n, void* temp,
                     std::size_t temp_bytes, cudaStream_t stream) {
  if (type == scan::Type::int32)
    inclusive_sum<unsigned>(in, out, n, temp, temp_bytes, stream);
  else
    inclusive_sum<float>(in, out, n, temp, temp_bytes, stream);
}

}  // namespace gpucmp::cuda
