// CUDA runner of layoutconv: the source uploaded once, one conversion kernel
// per launch, the destination downloaded.
#include "check.h"
#include "layoutconv_kernels.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/layout/layoutconv.h"

namespace gpucmp::cuda {

namespace {

class LayoutConvRunner : public TimedRunner {
 public:
  explicit LayoutConvRunner(layoutconv::Problem& p) : p_(p) {}

  void upload() override {
    const std::size_t bytes = p_.src.size() * sizeof(float);
    src_ = device_alloc(bytes, "layoutconv src");
    dst_ = device_alloc(bytes, "layoutconv dst");
    copy_and_wait(src_.get(), p_.src.data(), bytes, cudaMemcpyHostToDevice, stream(),
                  "layoutconv src");
  }
  void download() override {
    copy_and_wait(p_.dst.data(), dst_.get(), p_.dst.size() * sizeof(float), cudaMemcpyDeviceToHost,
                  stream(), "layoutconv dst");
  }

 protected:
  void enqueue() override {
    launch_layoutconv(static_cast<float*>(dst_.get()), static_cast<const float*>(src_.get()),
                      p_.records, p_.words, p_.from, p_.to, stream());
    check(cudaGetLastError(), "layoutconv<<<>>>", "layoutconv");
  }

 private:
  layoutconv::Problem& p_;
  DevicePtr src_, dst_;
};

GPUCMP_RUNNERS("cuda") {
  layoutconv::runners().add("cuda", layoutconv::variants(),
                            [](layoutconv::Problem& p, const layoutconv::Variant&) {
                              return std::make_unique<LayoutConvRunner>(p);
                            });
}

}  // namespace

}  // namespace gpucmp::cuda
