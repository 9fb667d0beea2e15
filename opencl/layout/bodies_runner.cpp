// OpenCL runner of bodies: the records converted on the host into the row's
// layout and uploaded once, one kernel launch per launch (bodies.cl, built
// once per layout: registered below).
#include "check.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/layout/bodies.h"

namespace gpucmp::opencl {

namespace {

class BodiesRunner : public TimedRunner {
 public:
  BodiesRunner(bodies::Problem& p, const bodies::Variant& v)
      : p_(p),
        layout_(v.layout),
        program_(session().program(program_spec("bodies", layout::program_name(v)))),
        kernel_(make_kernel(program_, "bodies")) {}

  void upload() override {
    const std::vector<float> records = layout::from_aos(p_.aos, layout_, p_.n, bodies::kWords);
    records_ = make_buffer(CL_MEM_READ_ONLY, records.size() * sizeof(float), "bodies records");
    r2_ = make_buffer(CL_MEM_WRITE_ONLY, p_.n * sizeof(float), "bodies r2");
    check(clEnqueueWriteBuffer(session().queue(), records_, CL_TRUE, 0,
                               records.size() * sizeof(float), records.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer", "bodies records");
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), r2_, CL_TRUE, 0, p_.n * sizeof(float),
                              p_.r2.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer", "bodies r2");
  }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    set_args(kernel_, "bodies", r2_, records_, cl_ulong(p_.n));
    const std::size_t local = bodies::kBlock, global = p_.n;
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 1, nullptr, &global, &local, 0,
                                 nullptr, record()),
          "clEnqueueNDRangeKernel", "bodies");
  }

 private:
  bodies::Problem& p_;
  layout::Layout layout_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer records_, r2_;
};

// Once per particle layout (the data-layout study).
GPUCMP_PROGRAMS {
  specs.push_back(source("bodies", "base", "bodies.cl", "-DGPUCMP_LAYOUT=0 -DGPUCMP_TILE=32"));
  specs.push_back(source("bodies", "base-soa", "bodies.cl", "-DGPUCMP_LAYOUT=1 -DGPUCMP_TILE=32"));
  specs.push_back(
      source("bodies", "base-aosoa", "bodies.cl", "-DGPUCMP_LAYOUT=2 -DGPUCMP_TILE=32"));
}

GPUCMP_RUNNERS("opencl") {
  bodies::runners().add("opencl", bodies::variants(),
                        [](bodies::Problem& p, const bodies::Variant& v) {
                          return std::make_unique<BodiesRunner>(p, v);
                        });
}

}  // namespace

}  // namespace gpucmp::opencl
