// OpenCL runner of sort: the input uploaded once into an untouched buffer;
// one launch = clEnqueueCopyBuffer restoring the unsorted data, then one
// kernel launch per pass, all on the session's queue, with the row's
// work-group size or a NULL local size for the "driver" rows (sort.cl, its
// program registered below).
#include "check.h"
#include "group_size.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/worksize/sort.h"

namespace gpucmp::opencl {

namespace {

class SortRunner : public TimedRunner {
 public:
  SortRunner(sort::Problem& p, const sort::Variant& v)
      : p_(p),
        local_(v.local),
        what_("sort local " + to_string(v.local, 1)),
        spec_(program_spec("sort", v.name)),
        program_(session().program(spec_)),
        kernel_(make_kernel(program_, "bitonic_pass")) {}

  void upload() override {
    const std::size_t bytes = p_.n * sizeof(float);
    input_ = make_buffer(CL_MEM_READ_ONLY, bytes, "sort input");
    data_ = make_buffer(CL_MEM_READ_WRITE, bytes, "sort data");
    check(clEnqueueWriteBuffer(session().queue(), input_, CL_TRUE, 0, bytes, p_.input.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer", "sort input");
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), data_, CL_TRUE, 0, p_.n * sizeof(float),
                              p_.output.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer", "sort data");
  }
  double build_ms() const override { return program_.build_ms; }
  int suggested_group_size() const override { return kernel_group_size(kernel_.get(), "sort"); }
  KernelResources kernel_resources() const override {
    return opencl::kernel_resources(kernel_.get(), spec_, "bitonic_pass");
  }

 protected:
  void enqueue() override {
    cl_command_queue q = session().queue();
    check(clEnqueueCopyBuffer(q, input_, data_, 0, 0, p_.n * sizeof(float), 0, nullptr, record()),
          "clEnqueueCopyBuffer", "sort restore");
    const auto n = cl_uint(p_.n);
    const std::size_t global = p_.n / 2, local = std::size_t(local_.x);
    for (cl_uint k = 2; k <= n; k <<= 1)
      for (cl_uint j = k >> 1; j > 0; j >>= 1) {
        set_args(kernel_, "bitonic_pass", data_, k, j);
        check(clEnqueueNDRangeKernel(q, kernel_, 1, nullptr, &global,
                                     local_.by_driver() ? nullptr : &local, 0, nullptr, record()),
              "clEnqueueNDRangeKernel", what_);
      }
  }

 private:
  sort::Problem& p_;
  LocalShape local_;
  std::string what_;  // built once: the passes' error context
  const ProgramSpec& spec_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer input_, data_;
};

GPUCMP_PROGRAMS { specs.push_back(source("sort", "bitonic", "sort.cl", "")); }

GPUCMP_RUNNERS("opencl") {
  sort::runners().add("opencl", sort::variants(), [](sort::Problem& p, const sort::Variant& v) {
    return std::make_unique<SortRunner>(p, v);
  });
}

}  // namespace

}  // namespace gpucmp::opencl
