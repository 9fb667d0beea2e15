// OpenCL runner of reduce: the words uploaded once; per launch the
// algorithm's kernels (reduce.cl, its program per type registered below),
// the one-word sum read after. Launch geometry as cuda/agpu/reduce.cu's.
#include <algorithm>
#include <cstdint>
#include <string>

#include "check.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/agpu/reduce.h"

namespace gpucmp::opencl {

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

class ReduceRunner : public TimedRunner {
 public:
  ReduceRunner(reduce::Problem& p, const reduce::Variant& v)
      : p_(p),
        variant_(reduce::algorithm(v.name)),
        spec_(&program_spec("reduce", agpu::program_of(v.name, p.type))),
        program_(session().program(*spec_)),
        tree_(make_kernel(program_, "reduce_tree")),
        cascading_(make_kernel(program_, "reduce_cascading")),
        strided_(make_kernel(program_, "reduce_strided_block")),
        pipeline_(make_kernel(program_, "reduce_pipeline")) {}

  void upload() override {
    const std::size_t bytes = p_.n * sizeof(std::uint32_t);
    const std::size_t scratch =
        std::max<std::size_t>(p_.n / reduce::kBlock + 1, std::size_t(p_.grid_blocks));
    in_ = make_buffer(CL_MEM_READ_ONLY, bytes, "reduce words");
    out_ = make_buffer(CL_MEM_READ_WRITE, sizeof(std::uint32_t), "reduce sum");
    a_ = make_buffer(CL_MEM_READ_WRITE, scratch * sizeof(std::uint32_t), "reduce partials");
    b_ = make_buffer(CL_MEM_READ_WRITE, scratch * sizeof(std::uint32_t), "reduce partials");
    check(clEnqueueWriteBuffer(session().queue(), in_, CL_TRUE, 0, bytes, p_.words.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer", "reduce words");
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), out_, CL_TRUE, 0, sizeof p_.result, &p_.result, 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer", "reduce sum");
  }
  double build_ms() const override { return program_.build_ms; }
  std::string label() const override { return describe(*spec_); }

 protected:
  void enqueue() override {
    const std::size_t n = p_.n;
    if (variant_ == "tree") {
      const Buffer* from = &in_;
      const Buffer* to = &a_;
      for (std::size_t m = n;;) {
        const std::size_t groups = ceil_div(m, reduce::kBlock);
        const Buffer& dest = groups == 1 ? out_ : *to;
        set_args(tree_, "reduce_tree", *from, dest, cl_ulong(m));
        run(tree_, groups, "reduce_tree");
        if (groups == 1) return;
        from = to;
        to = to == &a_ ? &b_ : &a_;
        m = groups;
      }
    }
    const auto blocks = std::size_t(p_.grid_blocks);
    if (variant_ == "cascading") {
      set_args(cascading_, "reduce_cascading", in_, a_, cl_ulong(n));
      run(cascading_, blocks, "reduce_cascading");
      set_args(strided_, "reduce_strided_block", a_, out_, cl_ulong(blocks));
      run(strided_, 1, "reduce_strided_block");
      return;
    }
    const std::size_t tile = std::size_t(reduce::kBlock) * reduce::kTileWords;
    const std::size_t segment = ceil_div(ceil_div(n, blocks), tile) * tile;
    const std::size_t used = ceil_div(n, segment);
    set_args(pipeline_, "reduce_pipeline", in_, a_, cl_ulong(n), cl_ulong(segment));
    run(pipeline_, used, "reduce_pipeline");
    set_args(pipeline_, "reduce_pipeline", a_, out_, cl_ulong(used),
             cl_ulong(ceil_div(used, tile) * tile));
    run(pipeline_, 1, "reduce_pipeline");
  }

 private:
  // The timed launch's kernels go through record() (each one timed event).
  void run(const Kernel& k, std::size_t groups, const char* what) {
    const std::size_t local = reduce::kBlock, global = groups * local;
    check(clEnqueueNDRangeKernel(session().queue(), k, 1, nullptr, &global, &local, 0, nullptr,
                                 record()),
          "clEnqueueNDRangeKernel", what);
  }

  reduce::Problem& p_;
  std::string variant_;
  // The program of the row's type: program_specs()' stored entry (a pointer, not a
  // reference member, which GCC 13 takes for one to the name temporaries).
  const ProgramSpec* spec_;
  const BuiltProgram& program_;
  Kernel tree_, cascading_, strided_, pipeline_;
  Buffer in_, out_, a_, b_;
};

// reduce.cl's word: int32 summed as unsigned (modulo 2^32), float, or the
// affine maps of agpu_ops.clh. One program per algorithm and word type (the
// programs are alike; each row builds its own, as each CUDA row has its kernels).
constexpr const char* kReduceInt32 = "-DT=uint -DT4=uint4";
constexpr const char* kReduceFloat = "-DT=float -DT4=float4";
constexpr const char* kReduceAffine = "-DT=uint -DT4=uint4 -DAFFINE16";

// pipeline-regcap40: pipeline with at most 40 registers a thread on NVIDIA's
// driver (CUDA's count for scan's onepass int32; the agpu-regcap part caps
// every OpenCL kernel so, this row pipeline alone, in the agpu part's own
// run); elsewhere the plain pipeline build. OpenCL only: scripts/passes_table.py
// takes it as a candidate for the pipeline pair.
constexpr const char* kRegcap40 = "-cl-nv-maxrregcount=40";

GPUCMP_PROGRAMS {
  for (const char* algorithm : {"tree", "cascading", "pipeline", "pipeline-regcap40"}) {
    const std::string a = algorithm;
    const std::string nvidia = a == "pipeline-regcap40" ? kRegcap40 : "";
    specs.push_back(with_nvidia(source("reduce", a + "-int32", "reduce.cl", kReduceInt32), nvidia));
    specs.push_back(with_nvidia(source("reduce", a, "reduce.cl", kReduceFloat), nvidia));
    specs.push_back(
        with_nvidia(source("reduce", a + "-affine16", "reduce.cl", kReduceAffine), nvidia));
  }
}

GPUCMP_RUNNERS("opencl") {
  const auto make = [](reduce::Problem& p, const reduce::Variant& v) {
    return std::make_unique<ReduceRunner>(p, v);
  };
  reduce::runners().add("opencl", reduce::variants(), make);
  reduce::runners().add("opencl", {{"pipeline-regcap40"}}, make);
}

}  // namespace

}  // namespace gpucmp::opencl
