// A CUDA runner whose kernels come from PTX that the driver JIT-compiles when
// the runner is made (jit_library.h): the cross-run rows (cross_runners.h).
// `Buffers` is the workload's device-copy base (MatrixRunner, CpBuffers,
// MriBuffers): upload, download, batch timing, cold mode and validation are
// those of the workload's own CUDA rows; a JitRunner adds only the library and
// its enqueue(). build_ms reports the JIT (load + compile), never part of
// kernel time.
#pragma once
#include <string>

#include "jit_library.h"

namespace gpucmp::cuda {

template <class Buffers>
class JitRunner : public Buffers {
 public:
  double build_ms() const override { return library_.jit_ms(); }

 protected:
  // `what` names the PTX in errors ("matrixMul/tile16-opencl-ptx").
  template <class Problem>
  JitRunner(Problem& p, const std::string& ptx, const std::string& what)
      : Buffers(p), library_(ptx, what), what_(what) {}
  // For a base made from the problem and the row's variant (LavaMdBuffers).
  template <class Problem, class Variant>
  JitRunner(Problem& p, const Variant& v, const std::string& ptx, const std::string& what)
      : Buffers(p, v), library_(ptx, what), what_(what) {}

  JitLibrary& library() { return library_; }
  const std::string& what() const { return what_; }

 private:
  JitLibrary library_;
  std::string what_;
};

}  // namespace gpucmp::cuda
