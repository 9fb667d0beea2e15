// CUDA runner of advection: the initial field uploaded into both buffers;
// each launch one step from one buffer into the other (advection.cu); the
// field of the last step downloaded.
#include "advection_kernels.h"
#include "check.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/advection/advection.h"

namespace gpucmp::cuda {

namespace {

class AdvectionRunner : public TimedRunner {
 public:
  AdvectionRunner(advection::Problem& p, const advection::Variant& v) : p_(p), variant_(v.name) {}

  void upload() override {
    const std::size_t bytes = p_.initial.size() * sizeof(float);
    for (DevicePtr& f : f_) {
      f = device_alloc(bytes, "advection f");
      copy_and_wait(f.get(), p_.initial.data(), bytes, cudaMemcpyHostToDevice, stream(),
                    "advection f");
    }
    p_.steps_done = 0;
  }
  void download() override {
    copy_and_wait(p_.out.data(), f_[p_.steps_done % 2].get(), p_.out.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, stream(), "advection f");
  }

 protected:
  void enqueue() override {
    const advection::Flow& flow = p_.flow;
    launch_advection_step(variant_, static_cast<const float*>(f_[p_.steps_done % 2].get()),
                          static_cast<float*>(f_[(p_.steps_done + 1) % 2].get()), p_.nx, p_.ny,
                          float(flow.xc), float(flow.yc), float(flow.omega), stream());
    check(cudaGetLastError(), "advection<<<>>>", "advection/" + variant_);
    ++p_.steps_done;
  }

 private:
  advection::Problem& p_;
  std::string variant_;
  DevicePtr f_[2];
};

GPUCMP_RUNNERS("cuda") {
  advection::runners().add("cuda", advection::variants(),
                           [](advection::Problem& p, const advection::Variant& v) {
                             return std::make_unique<AdvectionRunner>(p, v);
                           });
}

}  // namespace

}  // namespace gpucmp::cuda
