#include "rect_copy.h"

#include "check.h"

namespace gpucmp::cuda {

namespace {
void copy_rect(float* dst, const float* src, long long width, const Rect& r, cudaMemcpyKind kind,
               cudaStream_t stream, const std::string& what) {
  if (r.empty()) return;
  const std::size_t pitch = std::size_t(width) * sizeof(float);
  const auto offset = std::size_t(r.y * width + r.x);
  check(cudaMemcpy2DAsync(dst + offset, pitch, src + offset, pitch,
                          std::size_t(r.w) * sizeof(float), std::size_t(r.h), kind, stream),
        "cudaMemcpy2DAsync", what);
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", what);
}
}  // namespace

void upload_rect(float* device, const std::vector<float>& host, long long width, const Rect& r,
                 cudaStream_t stream, const std::string& what) {
  copy_rect(device, host.data(), width, r, cudaMemcpyHostToDevice, stream, what);
}

void download_rect(std::vector<float>& host, const float* device, long long width, const Rect& r,
                   cudaStream_t stream, const std::string& what) {
  copy_rect(host.data(), device, width, r, cudaMemcpyDeviceToHost, stream, what);
}

}  // namespace gpucmp::cuda
