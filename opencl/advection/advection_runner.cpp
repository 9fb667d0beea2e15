// OpenCL runner of advection: as cuda/advection/advection_runner.cpp, the
// step from advection.cl (its program per variant from programs.cpp:
// branchy is advection_blocked built with -DTWO_BRANCH).
#include "check.h"
#include "kernel_args.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/advection/advection.h"

namespace gpucmp::opencl {

namespace {

class AdvectionRunner : public TimedRunner {
 public:
  AdvectionRunner(advection::Problem& p, const advection::Variant& v)
      : p_(p),
        plain_(v.name == "plain"),
        weights_(v.name == "weights"),
        program_(session().program(program_spec("advection", v.name))),
        kernel_(make_kernel(program_, v.name == "plain"     ? "advection_plain"
                                      : v.name == "weights" ? "advection_weights"
                                                            : "advection_blocked")) {}

  void upload() override {
    const std::size_t bytes = p_.initial.size() * sizeof(float);
    for (Buffer& f : f_) {
      f = make_buffer(CL_MEM_READ_WRITE, bytes, "advection f");
      check(clEnqueueWriteBuffer(session().queue(), f, CL_TRUE, 0, bytes, p_.initial.data(), 0,
                                 nullptr, nullptr),
            "clEnqueueWriteBuffer", "advection f");
    }
    p_.steps_done = 0;
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), f_[p_.steps_done % 2], CL_TRUE, 0,
                              p_.out.size() * sizeof(float), p_.out.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer", "advection f");
  }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    const advection::Flow& flow = p_.flow;
    set_args(kernel_, "advection", f_[p_.steps_done % 2], f_[(p_.steps_done + 1) % 2],
             cl_int(p_.nx), cl_int(p_.ny), float(flow.xc), float(flow.yc), float(flow.omega));
    // advection.cl's PLAIN_ROWS, WEIGHTS_ROWS and TILE_Y: a work-group of
    // kTileX x kPlainRows (plain), or kTileX x 1 per kTileX x kWeightsRows
    // cells (weights) or kTileX x kTileY cells (blocked).
    const std::size_t rows = plain_     ? advection::kPlainRows
                             : weights_ ? advection::kWeightsRows
                                        : advection::kTileY;
    const std::size_t local[2] = {advection::kTileX, plain_ ? rows : 1};
    const std::size_t global[2] = {std::size_t(p_.nx),
                                   plain_ ? std::size_t(p_.ny) : std::size_t(p_.ny) / rows};
    check(clEnqueueNDRangeKernel(session().queue(), kernel_, 2, nullptr, global, local, 0, nullptr,
                                 record()),
          "clEnqueueNDRangeKernel", "advection");
    ++p_.steps_done;
  }

 private:
  advection::Problem& p_;
  bool plain_, weights_;
  const BuiltProgram& program_;
  Kernel kernel_;
  Buffer f_[2];
};

GPUCMP_RUNNERS("opencl") {
  advection::runners().add("opencl", advection::variants(),
                           [](advection::Problem& p, const advection::Variant& v) {
                             return std::make_unique<AdvectionRunner>(p, v);
                           });
}

}  // namespace

}  // namespace gpucmp::opencl
