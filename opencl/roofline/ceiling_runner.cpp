// OpenCL runner of ceiling: l2's buffer written once, one kernel per launch
// (ceiling.cl, its program registered below), the per-thread results read
// after. Geometry as cuda/roofline/ceiling.cu's.
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
#include "workloads/roofline/ceiling.h"

namespace gpucmp::opencl {

namespace {

class CeilingRunner : public TimedRunner {
 public:
  CeilingRunner(ceiling::Problem& p, const ceiling::Variant& v)
      : p_(p),
        variant_(v),
        kernel_name_(kernel_name(v)),
        program_(session().program(program_spec("ceiling", v.name))),
        kernel_(make_kernel(program_, kernel_name_.c_str())) {}

  void upload() override {
    const std::size_t out_bytes = p_.out.size() * sizeof(std::uint32_t);
    out_ = make_buffer(CL_MEM_WRITE_ONLY, out_bytes, "ceiling results");
    // 0xff bytes, as the host's clear: a launch that wrote nothing fails.
    const cl_uint ones = 0xffffffffU;
    check(clEnqueueFillBuffer(session().queue(), out_, &ones, sizeof ones, 0, out_bytes, 0, nullptr,
                              nullptr),
          "clEnqueueFillBuffer", "ceiling results");
    const std::size_t bytes = p_.words.size() * sizeof(std::uint32_t);
    words_ = make_buffer(CL_MEM_READ_ONLY, bytes, "ceiling l2 buffer");
    check(clEnqueueWriteBuffer(session().queue(), words_, CL_TRUE, 0, bytes, p_.words.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer", "ceiling l2 buffer");
    if (variant_.name == ceiling::kLaunchArgsOnce) set_launch_args();  // once, not at each launch
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), out_, CL_TRUE, 0,
                              p_.out.size() * sizeof(std::uint32_t), p_.out.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer", "ceiling results");
  }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    if (variant_.name == "fma")
      set_args(kernel_, "ceiling_fma", out_, ceiling::kFmaScale, ceiling::kFmaAdd);
    else if (variant_.name == "shared" || variant_.name == "launch" ||
             variant_.name == "launch-grid")
      set_args(kernel_, kernel_name_.c_str(), out_);
    else if (const int steps = ceiling::spin_steps(variant_); steps > 0)
      set_args(kernel_, "ceiling_launch_spin", out_, ceiling::kFmaScale, ceiling::kFmaAdd,
               cl_int(steps));
    else if (variant_.name == "launch-args")
      set_launch_args();
    else if (variant_.name != ceiling::kLaunchArgsOnce)
      set_args(kernel_, "ceiling_l2", out_, words_, cl_int(p_.threads()));
    const std::size_t local = ceiling::kBlock;
    const std::size_t global = std::size_t(ceiling::grid_blocks(variant_, p_)) * local;
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 1, nullptr, &global, &local, 0,
                                 nullptr, record()),
          "clEnqueueNDRangeKernel", "ceiling/" + variant_.name);
  }

 private:
  // ceiling_<variant>, '-' as '_', without "-once" (launch-grid:
  // ceiling_launch_grid; launch-args-once: ceiling_launch_args;
  // launch-spin-<s>: ceiling_launch_spin).
  static std::string kernel_name(const ceiling::Variant& v) {
    if (ceiling::spin_steps(v) > 0) return "ceiling_launch_spin";
    std::string name = "ceiling_" + v.name.substr(0, v.name.rfind("-once"));
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
  }
  // launch-args' arguments, as cuda/roofline/ceiling.cu passes them: set at
  // every launch whatever --cl-kernel-args says (what the row prices).
  void set_launch_args() {
    set_args_every_time(kernel_, "ceiling_launch_args", out_, words_, cl_ulong(ceiling::kArgsN),
                        cl_int(ceiling::kArgsCount), cl_int(ceiling::kArgsFrom),
                        cl_int(ceiling::kArgsTo));
  }

  ceiling::Problem& p_;
  ceiling::Variant variant_;
  std::string kernel_name_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer out_, words_;
};

GPUCMP_PROGRAMS {
  for (const ceiling::Variant& v : ceiling::variants())
    specs.push_back(source("ceiling", v.name, "ceiling.cl", ""));
  specs.push_back(source("ceiling", ceiling::kLaunchArgsOnce, "ceiling.cl", ""));
}

GPUCMP_RUNNERS("opencl") {
  const auto make = [](ceiling::Problem& p, const ceiling::Variant& v) {
    return std::make_unique<CeilingRunner>(p, v);
  };
  ceiling::runners().add("opencl", ceiling::variants(), make);
  ceiling::runners().add("opencl", {{ceiling::kLaunchArgsOnce}}, make);  // OpenCL's own
}

}  // namespace

}  // namespace gpucmp::opencl
