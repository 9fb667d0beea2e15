// CUDA runner of bodies: the records converted on the host into the row's
// layout and uploaded once, one kernel launch per launch.
#include "bodies_kernels.h"
#include "check.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/layout/bodies.h"

namespace gpucmp::cuda {

namespace {

class BodiesRunner : public TimedRunner {
 public:
  BodiesRunner(bodies::Problem& p, const bodies::Variant& v) : p_(p), layout_(v.layout) {}

  void upload() override {
    const std::vector<float> records = layout::from_aos(p_.aos, layout_, p_.n, bodies::kWords);
    records_ = device_alloc(records.size() * sizeof(float), "bodies records");
    r2_ = device_alloc(p_.n * sizeof(float), "bodies r2");
    copy_and_wait(records_.get(), records.data(), records.size() * sizeof(float),
                  cudaMemcpyHostToDevice, stream(), "bodies records");
  }
  void download() override {
    copy_and_wait(p_.r2.data(), r2_.get(), p_.n * sizeof(float), cudaMemcpyDeviceToHost, stream(),
                  "bodies r2");
  }

 protected:
  void enqueue() override {
    launch_bodies(layout_, static_cast<float*>(r2_.get()),
                  static_cast<const float*>(records_.get()), p_.n, stream());
    check(cudaGetLastError(), "bodies<<<>>>", "bodies " + layout::to_string(layout_));
  }

 private:
  bodies::Problem& p_;
  layout::Layout layout_;
  DevicePtr records_, r2_;
};

GPUCMP_RUNNERS("cuda") {
  bodies::runners().add("cuda", bodies::variants(),
                        [](bodies::Problem& p, const bodies::Variant& v) {
                          return std::make_unique<BodiesRunner>(p, v);
                        });
}

}  // namespace

}  // namespace gpucmp::cuda
