// CUB's DeviceScan (the CUDA toolkit's own; the vendor reference of the scan
// workload, harness/workloads/agpu/scan.h): InclusiveSum for int32 (summed as
// unsigned, modulo 2^32, like gpucmp's kernels) and float; InclusiveScan with
// word_ops.h's operator for affine16, the non-commutative product.
#include <cub/device/device_scan.cuh>

#include "check.h"
#include "scan_kernels.h"
#include "word_ops.h"

namespace gpucmp::cuda {

namespace {
// One call of CUB's scan for `type`: temp == nullptr asks for the bytes.
cudaError_t cub_scan(scan::Type type, void* temp, std::size_t& bytes, const void* in, void* out,
                     std::size_t n, cudaStream_t stream) {
  const auto* u_in = static_cast<const unsigned*>(in);
  auto* u_out = static_cast<unsigned*>(out);
  switch (type) {
    case scan::Type::int32:
      return cub::DeviceScan::InclusiveSum(temp, bytes, u_in, u_out, n, stream);
    case scan::Type::affine16:
      return cub::DeviceScan::InclusiveScan(temp, bytes, u_in, u_out, agpu_ops::Affine16{}, n,
                                            stream);
    case scan::Type::f32:
      break;
  }
  return cub::DeviceScan::InclusiveSum(temp, bytes, static_cast<const float*>(in),
                                       static_cast<float*>(out), n, stream);
}
}  // namespace

std::size_t cub_scan_temp_bytes(scan::Type type, std::size_t n) {
  std::size_t bytes = 0;
  check(cub_scan(type, nullptr, bytes, nullptr, nullptr, n, nullptr), "cub::DeviceScan",
        "scan/cub temporary storage");
  return bytes;
}

void launch_cub_scan(scan::Type type, const void* in, void* out, std::size_t n, void* temp,
                     std::size_t temp_bytes, cudaStream_t stream) {
  check(cub_scan(type, temp, temp_bytes, in, out, n, stream), "cub::DeviceScan", "scan/cub");
}

}  // namespace gpucmp::cuda
