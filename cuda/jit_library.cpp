#include "jit_library.h"

#include <chrono>
#include <vector>

#include "errors.h"

namespace gpucmp::cuda {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

JitLibrary::JitLibrary(const std::string& ptx, const std::string& what) : what_(what) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<char> log(16384, '\0');
  cudaJitOption options[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
  // cudaLibraryLoadData takes every option's value as a void*: the log buffer's
  // size goes in as an integer cast to a pointer, as the API specifies.
  // NOLINTNEXTLINE(performance-no-int-to-ptr): required by the JIT option API
  void* values[] = {log.data(), reinterpret_cast<void*>(log.size() - 1)};
  cudaLibrary_t library = nullptr;
  const cudaError_t err =
      cudaLibraryLoadData(&library, ptx.c_str(), options, values, 2, nullptr, nullptr, 0);
  if (err != cudaSuccess) {
    const std::string jit_log(log.data());
    throw ApiError("cudaLibraryLoadData (" + what + "): " + describe(err) +
                   (jit_log.empty() ? "" : "; JIT log: " + jit_log));
  }
  library_ = Unique<cudaLibrary_t, cudaLibraryUnload>(library);
  jit_ms_ += ms_since(t0);
}

cudaKernel_t JitLibrary::kernel(const std::string& name) {
  const auto t0 = std::chrono::steady_clock::now();
  cudaKernel_t k = nullptr;
  check(cudaLibraryGetKernel(&k, library_.get(), name.c_str()), "cudaLibraryGetKernel",
        what_ + ", kernel " + name);
  cudaFuncAttributes attrs{};
  check(cudaFuncGetAttributes(&attrs, reinterpret_cast<const void*>(k)), "cudaFuncGetAttributes",
        what_ + ", kernel " + name);
  jit_ms_ += ms_since(t0);
  return k;
}

void* JitLibrary::global(const std::string& name, std::size_t bytes) const {
  void* address = nullptr;
  std::size_t size = 0;
  check(cudaLibraryGetGlobal(&address, &size, library_.get(), name.c_str()), "cudaLibraryGetGlobal",
        what_ + ", " + name);
  if (size < bytes)
    throw ApiError(what_ + ": " + name + " holds " + std::to_string(size) + " bytes, " +
                   std::to_string(bytes) + " needed");
  return address;
}

}  // namespace gpucmp::cuda
