// OpenCL runner of lavamd: the particles converted on the host into the
// row's layout and uploaded once, one kernel launch per launch (lavamd.cl,
// built once per layout: registered below), the forces downloaded and converted
// back to AoS.
#include "check.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/layout/lavamd.h"

namespace gpucmp::opencl {

namespace {

class LavaMdRunner : public TimedRunner {
 public:
  LavaMdRunner(lavamd::Problem& p, const lavamd::Variant& v)
      : p_(p),
        layout_(v.layout),
        program_(session().program(program_spec("lavamd", layout::program_name(v)))),
        kernel_(make_kernel(program_, "lavamd")) {}

  void upload() override {
    const std::size_t words = p_.particles * 4;
    const std::vector<float> rv = layout::from_aos(p_.rv, layout_, p_.particles, 4);
    fv_ = make_buffer(CL_MEM_WRITE_ONLY, words * sizeof(float), "lavamd fv");
    rv_ = make_buffer(CL_MEM_READ_ONLY, words * sizeof(float), "lavamd rv");
    qv_ = make_buffer(CL_MEM_READ_ONLY, p_.particles * sizeof(float), "lavamd qv");
    neighbours_ = make_buffer(CL_MEM_READ_ONLY, p_.neighbours.size() * sizeof(int), "lavamd boxes");
    counts_ = make_buffer(CL_MEM_READ_ONLY, p_.counts.size() * sizeof(int), "lavamd counts");
    write(rv_, rv.data(), words * sizeof(float), "lavamd rv");
    write(qv_, p_.qv.data(), p_.particles * sizeof(float), "lavamd qv");
    write(neighbours_, p_.neighbours.data(), p_.neighbours.size() * sizeof(int), "lavamd boxes");
    write(counts_, p_.counts.data(), p_.counts.size() * sizeof(int), "lavamd counts");
  }
  void download() override {
    std::vector<float> fv(p_.particles * 4);
    check(clEnqueueReadBuffer(session().queue(), fv_, CL_TRUE, 0, fv.size() * sizeof(float),
                              fv.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer", "lavamd fv");
    layout::to_aos(fv, layout_, p_.fv, p_.particles, 4);
  }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    set_args(kernel_, "lavamd", fv_, rv_, qv_, neighbours_, counts_, cl_ulong(p_.particles),
             lavamd::kA2);
    const std::size_t local = lavamd::kThreads, global = p_.boxes * local;
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 1, nullptr, &global, &local, 0,
                                 nullptr, record()),
          "clEnqueueNDRangeKernel", "lavamd");
  }

 private:
  static void write(const Buffer& to, const void* from, std::size_t bytes, const char* what) {
    check(clEnqueueWriteBuffer(session().queue(), to, CL_TRUE, 0, bytes, from, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer", what);
  }

  lavamd::Problem& p_;
  layout::Layout layout_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer fv_, rv_, qv_, neighbours_, counts_;
};

// Once per particle layout (the data-layout study), each also with its
// __local tiles aligned to 16 bytes.
GPUCMP_PROGRAMS {
  specs.push_back(source("lavamd", "base", "lavamd.cl", "-DGPUCMP_LAYOUT=0 -DGPUCMP_TILE=32"));
  specs.push_back(source("lavamd", "base-soa", "lavamd.cl", "-DGPUCMP_LAYOUT=1 -DGPUCMP_TILE=32"));
  specs.push_back(
      source("lavamd", "base-aosoa", "lavamd.cl", "-DGPUCMP_LAYOUT=2 -DGPUCMP_TILE=32"));
  specs.push_back(source("lavamd", "aligned", "lavamd.cl",
                         "-DGPUCMP_LAYOUT=0 -DGPUCMP_TILE=32 -DLOCAL_ALIGN=16"));
  specs.push_back(source("lavamd", "aligned-soa", "lavamd.cl",
                         "-DGPUCMP_LAYOUT=1 -DGPUCMP_TILE=32 -DLOCAL_ALIGN=16"));
  specs.push_back(source("lavamd", "aligned-aosoa", "lavamd.cl",
                         "-DGPUCMP_LAYOUT=2 -DGPUCMP_TILE=32 -DLOCAL_ALIGN=16"));
}

GPUCMP_RUNNERS("opencl") {
  lavamd::runners().add("opencl", lavamd::variants(),
                        [](lavamd::Problem& p, const lavamd::Variant& v) {
                          return std::make_unique<LavaMdRunner>(p, v);
                        });
}

}  // namespace

}  // namespace gpucmp::opencl
