// Cross-run rows of matrixMul (cross_runners.h): the tiled kernel as OpenCL's
// compiler made it (`tile<T>-opencl-ptx`, OpenCL's kernel `matrixMul(C, A, B,
// n)`) and as nvcc made it (`tile<T>-ptx-jit`, nvcc's matrixMul<T>), each
// JIT-compiled by the CUDA driver and launched like matrixMul/cuda/tile<T>
// and matrixMul/opencl/tile<T>: an n/T x n/T grid of T x T blocks (OpenCL:
// global n x n, local T x T), the same A, B and validation.
#include <vector>

#include "cross_ptx_text.h"
#include "cross_runners.h"
#include "jit_runner.h"
#include "matrixmul_buffers.h"
#include "workloads/sdk/matrixmul.h"

namespace gpucmp::cuda {

namespace {

struct TiledVariant {
  const char* variant;  // the OpenCL program and the CUDA row it pairs with
  int tile;
  // nvcc's kernel: matrixMul<T, alignof(float)> (the source's current form),
  // or matrixMul<T> (its first form).
  std::vector<std::string> nvcc_entry;
};

const std::vector<TiledVariant>& tiled_variants() {
  static const std::vector<TiledVariant> v = {
      {"tile16", 16, {"matrixMulILi16ELi4EE", "matrixMulILi16EE"}},
      {"tile32", 32, {"matrixMulILi32ELi4EE", "matrixMulILi32EE"}},
      {"tile16-aligned", 16, {"matrixMulILi16ELi16EE"}},
      {"tile32-aligned", 32, {"matrixMulILi32ELi16EE"}},
  };
  return v;
}

// Same arguments as every tiled kernel of both APIs: (C, A, B, n).
class JitMatrixMul : public JitRunner<MatrixRunner> {
 public:
  JitMatrixMul(matrixmul::Problem& p, int tile, const std::string& ptx, const std::string& kernel,
               const std::string& what)
      : JitRunner(p, ptx, what), tile_(tile), kernel_(library().kernel(kernel)) {}

 protected:
  void enqueue() override {
    launch(kernel_, dim3(n() / tile_, n() / tile_), dim3(tile_, tile_), stream(), what(), c(), a(),
           b(), n());
  }

 private:
  int tile_;
  cudaKernel_t kernel_;
};

GPUCMP_CROSS_RUNNERS("cuda") {
  for (const TiledVariant& v : tiled_variants()) {
    const std::string base = v.variant;
    const std::string from_opencl = base + "-opencl-ptx", jit = base + "-ptx-jit";
    const auto opencl_runner = [base](matrixmul::Problem& p, const matrixmul::Variant& row) {
      const std::string ptx = opencl_ptx_for_cuda("matrixMul", base, 0);
      return std::make_unique<JitMatrixMul>(p, row.tile, ptx, "matrixMul", "matrixMul/" + row.name);
    };
    const auto nvcc_runner = [base, parts = v.nvcc_entry](matrixmul::Problem& p,
                                                          const matrixmul::Variant& row) {
      const std::string what = "matrixMul/" + row.name;
      const std::string ptx = nvcc_ptx_for("matrixMul", base);
      return std::make_unique<JitMatrixMul>(p, row.tile, ptx, entry_named(ptx, parts, what), what);
    };
    matrixmul::runners().add("cuda", {{from_opencl, v.tile}}, opencl_runner);
    matrixmul::runners().add("cuda", {{jit, v.tile}}, nvcc_runner);
  }
}

}  // namespace

}  // namespace gpucmp::cuda
