// CUDA runners of matrixMul: the tiled kernels (matrixmul.cu) and cuBLAS SGEMM.
#include <cublas_v2.h>

#include "errors.h"
#include "matrixmul_buffers.h"
#include "matrixmul_kernels.h"
#include "runner_table.h"

namespace gpucmp::cuda {

void MatrixRunner::upload() {
  const std::size_t bytes = p_.a.size() * sizeof(float);
  a_ = device_alloc(bytes, "matrixMul A");
  b_ = device_alloc(bytes, "matrixMul B");
  c_ = device_alloc(bytes, "matrixMul C");
  copy_and_wait(a_.get(), p_.a.data(), bytes, cudaMemcpyHostToDevice, stream(), "matrixMul A");
  copy_and_wait(b_.get(), p_.b.data(), bytes, cudaMemcpyHostToDevice, stream(), "matrixMul B");
}

void MatrixRunner::download() {
  copy_and_wait(p_.c.data(), c_.get(), p_.c.size() * sizeof(float), cudaMemcpyDeviceToHost,
                stream(), "matrixMul C");
}

namespace {

class TiledMatrixMul : public MatrixRunner {
 public:
  TiledMatrixMul(matrixmul::Problem& p, int tile, int tile_align)
      : MatrixRunner(p), tile_(tile), tile_align_(tile_align) {}

 protected:
  void enqueue() override { launch_matrixmul(tile_, tile_align_, c(), a(), b(), n(), stream()); }

 private:
  int tile_;
  int tile_align_;
};

const char* cublas_status_name(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS:
      return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
    default:
      return "CUBLAS_STATUS_(other)";
  }
}

void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw ApiError(std::string(call) + " (matrixMul cublas): " + cublas_status_name(s));
}

// cuBLAS is column-major: row-major C = A B is column-major C^T = B^T A^T, so
// the call passes B first. Default math mode: plain FP32, no TF32.
class CublasMatrixMul : public MatrixRunner {
 public:
  explicit CublasMatrixMul(matrixmul::Problem& p) : MatrixRunner(p) {
    check_cublas(cublasCreate(&handle_), "cublasCreate");
    check_cublas(cublasSetStream(handle_, stream()), "cublasSetStream");
    check_cublas(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  }
  ~CublasMatrixMul() override { cublasDestroy(handle_); }
  CublasMatrixMul(const CublasMatrixMul&) = delete;
  CublasMatrixMul& operator=(const CublasMatrixMul&) = delete;

 protected:
  void enqueue() override {
    const float one = 1.0f, zero = 0.0f;
    check_cublas(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n(), n(), n(), &one, b(), n(), a(),
                             n(), &zero, c(), n()),
                 "cublasSgemm");
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

GPUCMP_RUNNERS("cuda") {
  matrixmul::runners().add("cuda", matrixmul::tiled_kernels(),
                           [](matrixmul::Problem& p, const matrixmul::Variant& v) {
                             return std::make_unique<TiledMatrixMul>(p, v.tile, v.tile_align);
                           });
  matrixmul::runners().add("cuda", {{"cublas"}},
                           [](matrixmul::Problem& p, const matrixmul::Variant&) {
                             return std::make_unique<CublasMatrixMul>(p);
                           });
}

}  // namespace

}  // namespace gpucmp::cuda
