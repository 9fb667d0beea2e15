// OpenCL runner of layoutconv: the source uploaded once, one conversion
// kernel per launch (layoutconv.cl), the destination downloaded.
#include "check.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/layout/layoutconv.h"

namespace gpucmp::opencl {

namespace {

class LayoutConvRunner : public TimedRunner {
 public:
  LayoutConvRunner(layoutconv::Problem& p, const layoutconv::Variant& v)
      : p_(p),
        program_(session().program(program_spec("layoutconv", v.name))),
        kernel_(make_kernel(program_, "layoutconv")) {}

  void upload() override {
    const std::size_t bytes = p_.src.size() * sizeof(float);
    src_ = make_buffer(CL_MEM_READ_ONLY, bytes, "layoutconv src");
    dst_ = make_buffer(CL_MEM_WRITE_ONLY, bytes, "layoutconv dst");
    check(clEnqueueWriteBuffer(session().queue(), src_, CL_TRUE, 0, bytes, p_.src.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer", "layoutconv src");
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), dst_, CL_TRUE, 0, p_.dst.size() * sizeof(float),
                              p_.dst.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer", "layoutconv dst");
  }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    set_args(kernel_, "layoutconv", dst_, src_, cl_ulong(p_.records), cl_int(p_.words),
             cl_int(p_.from), cl_int(p_.to));
    const std::size_t local = layoutconv::kBlock;
    const std::size_t global = (p_.dst.size() + local - 1) / local * local;
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 1, nullptr, &global, &local, 0,
                                 nullptr, record()),
          "clEnqueueNDRangeKernel", "layoutconv");
  }

 private:
  layoutconv::Problem& p_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer src_, dst_;
};

GPUCMP_PROGRAMS { specs.push_back(source("layoutconv", "base", "layoutconv.cl", "")); }

GPUCMP_RUNNERS("opencl") {
  layoutconv::runners().add("opencl", layoutconv::variants(),
                            [](layoutconv::Problem& p, const layoutconv::Variant& v) {
                              return std::make_unique<LayoutConvRunner>(p, v);
                            });
}

}  // namespace

}  // namespace gpucmp::opencl
