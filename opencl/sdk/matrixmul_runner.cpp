// OpenCL runner of matrixMul: the tiled kernel (matrixmul.cl), and its programs
// (GPUCMP_PROGRAMS: from source, and the PTX variants of the study).
#include <string>

#include "check.h"
#include "errors.h"
#include "kernel_args.h"
#include "matrixmul_buffers.h"
#include "program_spec_helpers.h"
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

// A tiled kernel of harness/workloads/sdk/matrixmul.h, by its variant name.
ProgramSpec tiled_matrixmul(const std::string& variant) {
  for (const matrixmul::Variant& k : matrixmul::tiled_kernels()) {
    if (k.name != variant) continue;
    std::string options = "-DTILE=" + std::to_string(k.tile);
    if (k.tile_align > 0) options += " -DALIGN_TILES=" + std::to_string(k.tile_align);
    return source("matrixMul", k.name, "matrixmul.cl", options);
  }
  throw ApiError("no tiled matrixMul kernel " + variant);
}

// The tiled kernels from source, then their PTX variants: the study's
// controls and chains (auto on both tiles, hand-edited on tile16) and nvcc's PTX.
GPUCMP_PROGRAMS {
  const ProgramSpec tile16 = tiled_matrixmul("tile16");
  const ProgramSpec tile32 = tiled_matrixmul("tile32");
  const ProgramSpec aligned16 = tiled_matrixmul("tile16-aligned");
  const ProgramSpec aligned32 = tiled_matrixmul("tile32-aligned");
  specs.insert(specs.end(), {tile16, tile32, aligned16, aligned32});
  // ptx-shared32: the aligned tiles' PTX with nvcc's 32-bit .shared addressing
  // (pass shared32) in place of OpenCL's 64-bit one.
  for (const ProgramSpec* aligned : {&aligned16, &aligned32}) {
    ProgramSpec shared32 = derived(*aligned, "ptx-shared32", ProgramFrom::ptx_as_built_passes);
    shared32.passes = {"shared32"};
    specs.push_back(shared32);
  }
  for (const ProgramSpec* base : {&tile16, &tile32}) {
    add_ptx_controls(specs, *base);
    add_auto_chain(specs, *base);
  }
  add_hand_chain(specs, tile16);
  // matrixMul<TILE, ALIGN>: the unaligned kernels have ALIGN = alignof(float).
  specs.push_back(from_nvcc(tile16, "matrixmul.ptx", "matrixMulILi16ELi4E", "matrixMul"));
  specs.push_back(from_nvcc(tile32, "matrixmul.ptx", "matrixMulILi32ELi4E", "matrixMul"));
}

// The tiled kernel from source (tile16, tile32 and their -aligned forms:
// harness/workloads/sdk/matrixmul.h), and from PTX reloaded (the programs above).
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
