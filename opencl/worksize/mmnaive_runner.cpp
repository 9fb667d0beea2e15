// OpenCL runner of mmnaive: A and B uploaded once, one kernel launch per launch
// with the row's work-group shape, or a NULL local size for the "driver" rows;
// a split row's part moves and computes only its block (mmnaive::c_rect)
// (mmnaive.cl, its program registered below).
#include "check.h"
#include "group_size.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "rect_copy.h"
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
        part_(v.part),
        spec_(program_spec("mmnaive", v.name)),
        program_(session().program(spec_)),
        kernel_(make_kernel(program_, "mmnaive")) {}

  // Allocates once; uploads what the part reads (all of A and B for a whole row).
  void upload() override {
    if (!a_) {
      const std::size_t bytes = p_.a.size() * sizeof(float);
      a_ = make_buffer(CL_MEM_READ_ONLY, bytes, "mmnaive A");
      b_ = make_buffer(CL_MEM_READ_ONLY, bytes, "mmnaive B");
      c_ = make_buffer(CL_MEM_WRITE_ONLY, bytes, "mmnaive C");
      const Rect out = mmnaive::c_rect(p_.n, part_);
      set_args(kernel_, "mmnaive", c_, a_, b_, cl_int(p_.n), cl_int(out.x), cl_int(out.y));
    }
    upload_rect(a_, p_.a, p_.n, mmnaive::a_rect(p_.n, part_), "mmnaive A");
    upload_rect(b_, p_.b, p_.n, mmnaive::b_rect(p_.n, part_), "mmnaive B");
  }
  void download() override {
    download_rect(p_.c, c_, p_.n, mmnaive::c_rect(p_.n, part_), "mmnaive C");
  }
  double build_ms() const override { return program_.build_ms; }
  int suggested_group_size() const override { return kernel_group_size(kernel_.get(), "mmnaive"); }
  KernelResources kernel_resources() const override {
    return opencl::kernel_resources(kernel_.get(), spec_, "mmnaive");
  }

 protected:
  void enqueue() override {
    const Rect out = mmnaive::c_rect(p_.n, part_);
    const std::size_t global[2] = {std::size_t(out.w), std::size_t(out.h)};
    const std::size_t local[2] = {std::size_t(local_.x), std::size_t(local_.y)};
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 2, nullptr, global,
                                 local_.by_driver() ? nullptr : local, 0, nullptr, record()),
          "clEnqueueNDRangeKernel", "mmnaive local " + to_string(local_, 2));
  }

 private:
  mmnaive::Problem& p_;
  LocalShape local_;
  Part part_;
  const ProgramSpec& spec_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer a_, b_, c_;
};

GPUCMP_PROGRAMS { specs.push_back(source("mmnaive", "base", "mmnaive.cl", "")); }

GPUCMP_RUNNERS("opencl") {
  mmnaive::runners().add("opencl", mmnaive::variants(),
                         [](mmnaive::Problem& p, const mmnaive::Variant& v) {
                           return std::make_unique<MmNaiveRunner>(p, v);
                         });
}

}  // namespace

}  // namespace gpucmp::opencl
