// OpenCL runner of bilinear: the input uploaded once, one kernel launch per launch
// with the row's work-group shape, or a NULL local size for the "driver" rows
// (bilinear.cl, its program registered below).
#include "check.h"
#include "group_size.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "rect_copy.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/worksize/bilinear.h"

namespace gpucmp::opencl {

namespace {

class BilinearRunner final : public TimedRunner {
 public:
  BilinearRunner(bilinear::Problem& p, const bilinear::Variant& v)
      : p_(p),
        local_(v.local),
        part_(v.part),
        spec_(program_spec("bilinear", v.name)),
        program_(session().program(spec_)),
        kernel_(make_kernel(program_, "bilinear")) {}

  // Allocates once; uploads what the part reads (all of the input for a whole row).
  void upload() override {
    if (!in_) {
      in_ = make_buffer(CL_MEM_READ_ONLY, p_.in.size() * sizeof(float), "bilinear in");
      out_ = make_buffer(CL_MEM_WRITE_ONLY, p_.out.size() * sizeof(float), "bilinear out");
      const Rect r = bilinear::out_rect(p_, part_);
      set_args(kernel_, "bilinear", out_, in_, cl_int(p_.in_w), cl_int(p_.in_h), cl_int(p_.out_w),
               p_.scale_x, p_.scale_y, cl_int(r.x), cl_int(r.y));
    }
    upload_rect(in_, p_.in, p_.in_w, bilinear::in_rect(p_, part_), "bilinear in");
  }
  void download() override {
    download_rect(p_.out, out_, p_.out_w, bilinear::out_rect(p_, part_), "bilinear out");
  }
  double build_ms() const override { return program_.build_ms; }
  int suggested_group_size() const override { return kernel_group_size(kernel_.get(), "bilinear"); }
  KernelResources kernel_resources() const override {
    return opencl::kernel_resources(kernel_.get(), spec_, "bilinear");
  }

 protected:
  void enqueue() override {
    const Rect r = bilinear::out_rect(p_, part_);
    const std::size_t global[2] = {std::size_t(r.w), std::size_t(r.h)};
    const std::size_t local[2] = {std::size_t(local_.x), std::size_t(local_.y)};
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 2, nullptr, global,
                                 local_.by_driver() ? nullptr : local, 0, nullptr, record()),
          "clEnqueueNDRangeKernel", "bilinear local " + to_string(local_, 2));
  }

 private:
  bilinear::Problem& p_;
  LocalShape local_;
  Part part_;
  const ProgramSpec& spec_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer in_, out_;
};

GPUCMP_PROGRAMS { specs.push_back(source("bilinear", "base", "bilinear.cl", "")); }

GPUCMP_RUNNERS("opencl") {
  bilinear::runners().add("opencl", bilinear::variants(),
                          [](bilinear::Problem& p, const bilinear::Variant& v) {
                            return std::make_unique<BilinearRunner>(p, v);
                          });
}

}  // namespace

}  // namespace gpucmp::opencl
