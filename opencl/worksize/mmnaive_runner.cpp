// OpenCL runner of mmnaive: A and B uploaded once, one kernel launch per launch
// with the row's work-group shape, or a NULL local size for the "driver" rows
// (mmnaive.cl, its program from programs.cpp).
#include "check.h"
#include "group_size.h"
#include "kernel_args.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/worksize/mmnaive.h"

namespace gpucmp::opencl {

namespace {

class MmNaiveRunner final : public TimedRunner {
 public:
  MmNaiveRunner(mmnaive::Problem& p, const mmnaive::Variant& v)
      : p_(p),
        local_(v.local),
        program_(session().program(program_spec("mmnaive", v.name))),
        kernel_(make_kernel(program_, "mmnaive")) {}

  void upload() override {
    const std::size_t bytes = p_.a.size() * sizeof(float);
    a_ = make_buffer(CL_MEM_READ_ONLY, bytes, "mmnaive A");
    b_ = make_buffer(CL_MEM_READ_ONLY, bytes, "mmnaive B");
    c_ = make_buffer(CL_MEM_WRITE_ONLY, bytes, "mmnaive C");
    write(a_, p_.a, "mmnaive A");
    write(b_, p_.b, "mmnaive B");
    set_args(kernel_, "mmnaive", c_, a_, b_, cl_int(p_.n));
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), c_, CL_TRUE, 0, p_.c.size() * sizeof(float),
                              p_.c.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer", "mmnaive C");
  }
  double build_ms() const override { return program_.build_ms; }
  int suggested_group_size() const override { return kernel_group_size(kernel_.get(), "mmnaive"); }

 protected:
  void enqueue() override {
    const std::size_t global[2] = {std::size_t(p_.n), std::size_t(p_.n)};
    const std::size_t local[2] = {std::size_t(local_.x), std::size_t(local_.y)};
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 2, nullptr, global,
                                 local_.by_driver() ? nullptr : local, 0, nullptr, record()),
          "clEnqueueNDRangeKernel", "mmnaive local " + to_string(local_, 2));
  }

 private:
  static void write(const Buffer& to, const std::vector<float>& from, const char* what) {
    check(clEnqueueWriteBuffer(session().queue(), to, CL_TRUE, 0, from.size() * sizeof(float),
                               from.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer", what);
  }

  mmnaive::Problem& p_;
  LocalShape local_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer a_, b_, c_;
};

GPUCMP_RUNNERS("opencl") {
  mmnaive::runners().add("opencl", mmnaive::variants(),
                         [](mmnaive::Problem& p, const mmnaive::Variant& v) {
                           return std::make_unique<MmNaiveRunner>(p, v);
                         });
}

}  // namespace

}  // namespace gpucmp::opencl
