// OpenCL runner of triad: b and c uploaded once, one kernel launch per launch
// (triad.cl, its program registered below).
#include "check.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/stream/triad.h"

namespace gpucmp::opencl {

namespace {

class TriadRunner : public TimedRunner {
 public:
  TriadRunner(triad::Problem& p, const triad::Variant& v)
      : p_(p),
        program_(session().program(program_spec("triad", v.name))),
        kernel_(make_kernel(program_, "triad")) {}

  void upload() override {
    const std::size_t bytes = p_.n * sizeof(float);
    a_ = make_buffer(CL_MEM_WRITE_ONLY, bytes, "triad a");
    b_ = make_buffer(CL_MEM_READ_ONLY, bytes, "triad b");
    c_ = make_buffer(CL_MEM_READ_ONLY, bytes, "triad c");
    write(b_, p_.b, "triad b");
    write(c_, p_.c, "triad c");
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), a_, CL_TRUE, 0, p_.n * sizeof(float), p_.a.data(),
                              0, nullptr, nullptr),
          "clEnqueueReadBuffer", "triad a");
  }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    set_args(kernel_, "triad", a_, b_, c_, triad::kScalar);
    const std::size_t global = p_.n, local = triad::kBlock;
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 1, nullptr, &global, &local, 0,
                                 nullptr, record()),
          "clEnqueueNDRangeKernel", "triad");
  }

 private:
  static void write(const Buffer& to, const std::vector<float>& from, const char* what) {
    check(clEnqueueWriteBuffer(session().queue(), to, CL_TRUE, 0, from.size() * sizeof(float),
                               from.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer", what);
  }

  triad::Problem& p_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer a_, b_, c_;
};

GPUCMP_PROGRAMS { specs.push_back(source("triad", "base", "triad.cl", "")); }

GPUCMP_RUNNERS("opencl") {
  triad::runners().add("opencl", triad::variants(), [](triad::Problem& p, const triad::Variant& v) {
    return std::make_unique<TriadRunner>(p, v);
  });
}

}  // namespace

}  // namespace gpucmp::opencl
