#include "ptx_load.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <vector>

#include "check.h"
#include "nvcc_ptx.h"

namespace gpucmp::cuda {

double load_ptx_module_ms(const std::string& ptx, const std::string& what) {
  const auto t0 = std::chrono::steady_clock::now();
  cudaLibrary_t lib = nullptr;
  check(cudaLibraryLoadData(&lib, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0),
        "cudaLibraryLoadData", what);
  unsigned int count = 0;
  cudaError_t err = cudaLibraryGetKernelCount(&count, lib);
  std::vector<cudaKernel_t> kernels(count);
  if (err == cudaSuccess && count > 0)
    err = cudaLibraryEnumerateKernels(kernels.data(), count, lib);
  // Lazy loading defers the JIT to a kernel's first use in a context: asking
  // for each kernel's attributes makes it happen here.
  for (std::size_t i = 0; err == cudaSuccess && i < kernels.size(); ++i) {
    cudaFuncAttributes attrs{};
    err = cudaFuncGetAttributes(&attrs, reinterpret_cast<const void*>(kernels[i]));
  }
  const auto t1 = std::chrono::steady_clock::now();
  cudaLibraryUnload(lib);
  check(err, "cudaLibraryGetKernelCount/EnumerateKernels/cudaFuncGetAttributes", what);
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

std::string variant_ptx(const std::string& workload, const std::string& variant) {
  if (variant.find("fast") != std::string::npos) return "";  // not embedded
  // A workload's kernels are in <study>/<workload in lower case>.cu
  // (docs/DESIGN.md "Adding a paired workload"); tests/runner_catalog_test.cpp
  // checks that every kernel row finds its PTX.
  std::string file = workload + ".ptx";
  std::transform(file.begin(), file.end(), file.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  const auto& table = nvcc_ptx::embedded_sources();
  const auto it = table.find(file);
  return it == table.end() ? "" : it->second;
}

}  // namespace gpucmp::cuda
