// PTX JIT-compiled by the CUDA driver at run time, and launches of its
// kernels: what the cross-run rows (cross_runners.h) time in place of nvcc's
// ahead-of-time cubin.
//
// Loaded with the runtime's cudaLibraryLoadData (which wraps the driver's
// cuLibraryLoadData), not cuModuleLoadData: the runtime (cudart_static) loads
// libcuda itself when it first needs it, so gpucmp-bench keeps starting, and
// listing and skipping its CUDA rows, on machines without an NVIDIA driver;
// calling the driver API directly would link libcuda.so.1 into the binary. The
// driver JIT-compiles the PTX the same way for both calls.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>

#include "check.h"
#include "handles.h"

namespace gpucmp::cuda {

class JitLibrary {
 public:
  // Throws ApiError naming `what` with the JIT's error log when the driver
  // rejects the PTX.
  JitLibrary(const std::string& ptx, const std::string& what);

  // The kernel `name` (its .entry name), compiled now: with lazy loading
  // (CUDA_MODULE_LOADING=LAZY) the JIT would otherwise run at its first launch.
  cudaKernel_t kernel(const std::string& name);

  // Device address of the module-scope variable `name` (a .const array),
  // checked to hold at least `bytes`.
  void* global(const std::string& name, std::size_t bytes) const;

  // Milliseconds spent loading and JIT-compiling (the constructor and kernel()).
  double jit_ms() const { return jit_ms_; }

 private:
  Unique<cudaLibrary_t, cudaLibraryUnload> library_;
  std::string what_;
  double jit_ms_ = 0;
};

// A by-value aggregate argument (a struct of records, OpenCL's plain struct
// parameter): its bytes where they lie on the host; the kernel's parameter
// list gives their size, which the caller has checked (last_param_bytes() of
// cross_ptx_text.h).
struct ParamBytes {
  const void* data;
};

template <class T>
void* param_address(T& arg) {
  return static_cast<void*>(&arg);
}
inline void* param_address(ParamBytes& arg) { return const_cast<void*>(arg.data); }

// Launches `kernel` with `args` in the order of its parameter list. Only the
// types a kernel parameter can have here: device pointers (8 bytes), int and
// float (OpenCL's cl_int and cl_float), and by-value aggregates (ParamBytes).
template <class... Args>
void launch(cudaKernel_t kernel, dim3 grid, dim3 block, cudaStream_t stream,
            const std::string& what, Args... args) {
  static_assert(sizeof...(Args) > 0);
  static_assert(
      ((std::is_pointer_v<Args> || std::is_same_v<Args, int> || std::is_same_v<Args, float> ||
        std::is_same_v<Args, std::size_t> || std::is_same_v<Args, ParamBytes>)&&...),
      "kernel arguments: device pointers, int, size_t, float or ParamBytes");
  void* params[] = {param_address(args)...};
  check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, params, 0, stream),
        "cudaLaunchKernel", what);
}

}  // namespace gpucmp::cuda
