// OpenCL runner of trapezoid: the partials zeroed once at upload, one kernel
// launch per launch with the row's work-group size, or a NULL local size for
// the "driver" rows (trapezoid.cl, its program registered below).
#include <vector>

#include "check.h"
#include "group_size.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "rect_copy.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/worksize/trapezoid.h"

namespace gpucmp::opencl {

namespace {

class TrapezoidRunner : public TimedRunner {
 public:
  TrapezoidRunner(trapezoid::Problem& p, const trapezoid::Variant& v)
      : p_(p),
        local_(v.local),
        part_(v.part),
        spec_(program_spec("trapezoid", v.name)),
        program_(session().program(spec_)),
        kernel_(make_kernel(program_, "trapezoid_sum")) {}

  // Allocates and zeroes once (the kernel reads no input).
  void upload() override {
    if (partials_) return;
    const std::size_t bytes = p_.items * sizeof(float);
    partials_ = make_buffer(CL_MEM_READ_WRITE, bytes, "trapezoid partials");
    // Only the groups' first entries are ever written: the rest must read 0.
    const std::vector<float> zeros(p_.items, 0.0f);
    check(clEnqueueWriteBuffer(session().queue(), partials_, CL_TRUE, 0, bytes, zeros.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer", "trapezoid partials");
    const Rect r = trapezoid::items_rect(p_, part_);
    set_args(kernel_, "trapezoid_sum", partials_, cl_float(p_.h), cl_uint(r.x));
  }
  void download() override {
    download_rect(p_.partials, partials_, static_cast<long long>(p_.items),
                  trapezoid::items_rect(p_, part_), "trapezoid partials");
  }
  double build_ms() const override { return program_.build_ms; }
  int suggested_group_size() const override {
    return kernel_group_size(kernel_.get(), "trapezoid");
  }
  KernelResources kernel_resources() const override {
    return opencl::kernel_resources(kernel_.get(), spec_, "trapezoid_sum");
  }

 protected:
  void enqueue() override {
    const auto global = std::size_t(trapezoid::items_rect(p_, part_).w);
    const auto local = std::size_t(local_.x);
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 1, nullptr, &global,
                                 local_.by_driver() ? nullptr : &local, 0, nullptr, record()),
          "clEnqueueNDRangeKernel", "trapezoid local " + to_string(local_, 1));
  }

 private:
  trapezoid::Problem& p_;
  LocalShape local_;
  Part part_;
  const ProgramSpec& spec_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer partials_;
};

GPUCMP_PROGRAMS { specs.push_back(source("trapezoid", "base", "trapezoid.cl", "")); }

GPUCMP_RUNNERS("opencl") {
  trapezoid::runners().add("opencl", trapezoid::variants(),
                           [](trapezoid::Problem& p, const trapezoid::Variant& v) {
                             return std::make_unique<TrapezoidRunner>(p, v);
                           });
}

}  // namespace

}  // namespace gpucmp::opencl
