// OpenCL runner of matrixMul: the tiled kernel (matrixmul.cl).
#include "check.h"
#include "kernel_args.h"
#include "matrixmul_buffers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"

namespace gpucmp::opencl {

void MatrixBuffers::upload() {
  const std::size_t bytes = problem.a.size() * sizeof(float);
  a = make_buffer(CL_MEM_READ_ONLY, bytes, "matrixMul A");
  b = make_buffer(CL_MEM_READ_ONLY, bytes, "matrixMul B");
  c = make_buffer(CL_MEM_READ_WRITE, bytes, "matrixMul C");
  cl_command_queue q = session().queue();
  check(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, bytes, problem.a.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer", "matrixMul A");
  check(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, bytes, problem.b.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer", "matrixMul B");
}

void MatrixBuffers::download() {
  check(clEnqueueReadBuffer(session().queue(), c, CL_TRUE, 0, problem.c.size() * sizeof(float),
                            problem.c.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer", "matrixMul C");
}

namespace {

class TiledMatrixMul : public TimedRunner {
 public:
  TiledMatrixMul(matrixmul::Problem& p, int tile, const std::string& variant)
      : buffers_(p),
        tile_(tile),
        program_(session().program(program_spec("matrixMul", variant))),
        kernel_(make_kernel(program_, "matrixMul")) {}

  void upload() override {
    buffers_.upload();
    const cl_int n = buffers_.problem.n;
    set_args(kernel_, "matrixMul", buffers_.c, buffers_.a, buffers_.b, n);
  }
  void download() override { buffers_.download(); }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    const auto n = std::size_t(buffers_.problem.n), t = std::size_t(tile_);
    const std::size_t global[2] = {n, n}, local[2] = {t, t};
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 2, nullptr, global, local, 0, nullptr,
                                 record()),
          "clEnqueueNDRangeKernel", "matrixMul tile " + std::to_string(tile_));
  }

 private:
  MatrixBuffers buffers_;
  int tile_;
  const BuiltProgram& program_;
  Kernel kernel_;
};

// The tiled kernel from source (tile16, tile32 and their -aligned forms:
// harness/workloads/sdk/matrixmul.h), and from PTX reloaded (programs.h).
GPUCMP_RUNNERS("opencl") {
  std::vector<matrixmul::Variant> tiled;
  for (const ProgramSpec& spec : program_specs())
    if (spec.workload == "matrixMul")
      tiled.push_back({spec.variant, spec.variant.rfind("tile32", 0) == 0 ? 32 : 16});
  matrixmul::runners().add("opencl", tiled, [](matrixmul::Problem& p, const matrixmul::Variant& v) {
    return std::make_unique<TiledMatrixMul>(p, v.tile, v.name);
  });
}

}  // namespace

}  // namespace gpucmp::opencl
