// CUDA runner of lavamd: the particles converted on the host into the row's
// layout and uploaded once, one kernel launch per launch (lavamd.cu,
// instantiated once per layout), the forces downloaded and converted back to
// AoS.
#include "check.h"
#include "lavamd_kernels.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/layout/lavamd.h"

namespace gpucmp::cuda {

namespace {

class LavaMdRunner : public TimedRunner {
 public:
  LavaMdRunner(lavamd::Problem& p, const lavamd::Variant& v) : p_(p), layout_(v.layout) {}

  void upload() override {
    const std::size_t words = p_.particles * 4;
    const std::vector<float> rv = layout::from_aos(p_.rv, layout_, p_.particles, 4);
    fv_ = device_alloc(words * sizeof(float), "lavamd fv");
    rv_ = device_alloc(words * sizeof(float), "lavamd rv");
    qv_ = device_alloc(p_.particles * sizeof(float), "lavamd qv");
    neighbours_ = device_alloc(p_.neighbours.size() * sizeof(int), "lavamd boxes");
    counts_ = device_alloc(p_.counts.size() * sizeof(int), "lavamd counts");
    copy_and_wait(rv_.get(), rv.data(), words * sizeof(float), cudaMemcpyHostToDevice, stream(),
                  "lavamd rv");
    copy_and_wait(qv_.get(), p_.qv.data(), p_.particles * sizeof(float), cudaMemcpyHostToDevice,
                  stream(), "lavamd qv");
    copy_and_wait(neighbours_.get(), p_.neighbours.data(), p_.neighbours.size() * sizeof(int),
                  cudaMemcpyHostToDevice, stream(), "lavamd boxes");
    copy_and_wait(counts_.get(), p_.counts.data(), p_.counts.size() * sizeof(int),
                  cudaMemcpyHostToDevice, stream(), "lavamd counts");
  }
  void download() override {
    std::vector<float> fv(p_.particles * 4);
    copy_and_wait(fv.data(), fv_.get(), fv.size() * sizeof(float), cudaMemcpyDeviceToHost, stream(),
                  "lavamd fv");
    layout::to_aos(fv, layout_, p_.fv, p_.particles, 4);
  }

 protected:
  void enqueue() override {
    launch_lavamd(layout_, static_cast<float*>(fv_.get()), static_cast<const float*>(rv_.get()),
                  static_cast<const float*>(qv_.get()), static_cast<const int*>(neighbours_.get()),
                  static_cast<const int*>(counts_.get()), p_.boxes, stream());
    check(cudaGetLastError(), "lavamd<<<>>>", "lavamd " + layout::to_string(layout_));
  }

 private:
  lavamd::Problem& p_;
  layout::Layout layout_;
  DevicePtr fv_, rv_, qv_, neighbours_, counts_;
};

GPUCMP_RUNNERS("cuda") {
  lavamd::runners().add("cuda", lavamd::variants(),
                        [](lavamd::Problem& p, const lavamd::Variant& v) {
                          return std::make_unique<LavaMdRunner>(p, v);
                        });
}

}  // namespace

}  // namespace gpucmp::cuda
