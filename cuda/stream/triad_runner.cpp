// CUDA runner of triad: b and c uploaded once, one kernel launch per launch.
#include "check.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "triad_kernels.h"
#include "workloads/stream/triad.h"

namespace gpucmp::cuda {

namespace {

class TriadRunner : public TimedRunner {
 public:
  explicit TriadRunner(triad::Problem& p) : p_(p) {}

  void upload() override {
    const std::size_t bytes = p_.n * sizeof(float);
    a_ = device_alloc(bytes, "triad a");
    b_ = device_alloc(bytes, "triad b");
    c_ = device_alloc(bytes, "triad c");
    copy_and_wait(b_.get(), p_.b.data(), bytes, cudaMemcpyHostToDevice, stream(), "triad b");
    copy_and_wait(c_.get(), p_.c.data(), bytes, cudaMemcpyHostToDevice, stream(), "triad c");
  }
  void download() override {
    copy_and_wait(p_.a.data(), a_.get(), p_.n * sizeof(float), cudaMemcpyDeviceToHost, stream(),
                  "triad a");
  }

 protected:
  void enqueue() override {
    launch_triad(static_cast<float*>(a_.get()), static_cast<const float*>(b_.get()),
                 static_cast<const float*>(c_.get()), triad::kScalar, int(p_.n), stream());
    check(cudaGetLastError(), "triad<<<>>>", "triad");
  }

 private:
  triad::Problem& p_;
  DevicePtr a_, b_, c_;
};

GPUCMP_RUNNERS("cuda") {
  triad::runners().add("cuda", triad::variants(), [](triad::Problem& p, const triad::Variant&) {
    return std::make_unique<TriadRunner>(p);
  });
}

}  // namespace

}  // namespace gpucmp::cuda
