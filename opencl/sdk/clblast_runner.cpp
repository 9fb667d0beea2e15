// matrixMul/opencl/clblast: CLBlast SGEMM as the OpenCL vendor-library reference.
#include "runner_table.h"

#ifdef GPUCMP_HAVE_CLBLAST
#include <clblast.h>

#include "errors.h"
#include "matrixmul_buffers.h"
#include "session.h"
#include "timed_runner.h"

namespace gpucmp::opencl {

namespace {

class ClblastMatrixMul : public TimedRunner {
 public:
  // CLBlast may run helper kernels (padding, transposes) before its GEMM
  // kernel and returns only the last event. The batch's markers time them
  // all; with --launch-gaps a launch's span is its GEMM kernel's alone.
  explicit ClblastMatrixMul(matrixmul::Problem& p) : buffers_(p) {}
  void upload() override { buffers_.upload(); }
  void download() override { buffers_.download(); }

 protected:
  void enqueue() override {
    const auto n = std::size_t(buffers_.problem.n);
    cl_command_queue q = session().queue();
    const auto status = clblast::Gemm<float>(
        clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, n, n, n, 1.0f,
        buffers_.a, 0, n, buffers_.b, 0, n, 0.0f, buffers_.c, 0, n, &q, record());
    if (status != clblast::StatusCode::kSuccess)
      throw ApiError("clblast::Gemm<float> (n=" + std::to_string(n) + "): CLBlast status " +
                     std::to_string(int(status)));
  }

 private:
  MatrixBuffers buffers_;
};

GPUCMP_RUNNERS("opencl") {
  matrixmul::runners().add("opencl", {{"clblast"}},
                           [](matrixmul::Problem& p, const matrixmul::Variant&) {
                             return std::make_unique<ClblastMatrixMul>(p);
                           });
}

}  // namespace

}  // namespace gpucmp::opencl

#endif
