// CUDA runner of ceiling: l2's buffer uploaded once, one kernel per launch
// (ceiling.cu), the per-thread results downloaded after.
#include "ceiling_kernels.h"
#include "check.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/roofline/ceiling.h"

namespace gpucmp::cuda {

namespace {

class CeilingRunner : public TimedRunner {
 public:
  CeilingRunner(ceiling::Problem& p, ceiling::Variant v) : p_(p), v_(std::move(v)) {}

  void upload() override {
    const std::size_t out_bytes = p_.out.size() * sizeof(std::uint32_t);
    out_ = device_alloc(out_bytes, "ceiling results");
    // 0xff bytes, as the host's clear: a launch that wrote nothing fails.
    check(cudaMemsetAsync(out_.get(), 0xff, out_bytes, stream()), "cudaMemsetAsync",
          "ceiling results");
    const std::size_t bytes = p_.words.size() * sizeof(std::uint32_t);
    words_ = device_alloc(bytes, "ceiling l2 buffer");
    copy_and_wait(words_.get(), p_.words.data(), bytes, cudaMemcpyHostToDevice, stream(),
                  "ceiling l2 buffer");
  }
  void download() override {
    copy_and_wait(p_.out.data(), out_.get(), p_.out.size() * sizeof(std::uint32_t),
                  cudaMemcpyDeviceToHost, stream(), "ceiling results");
  }

 protected:
  void enqueue() override {
    launch_ceiling(v_.name, static_cast<unsigned*>(out_.get()), words_.get(),
                   ceiling::grid_blocks(v_, p_), stream());
    check(cudaGetLastError(), "ceiling<<<>>>", "ceiling/" + v_.name);
  }

 private:
  ceiling::Problem& p_;
  ceiling::Variant v_;
  DevicePtr out_, words_;
};

GPUCMP_RUNNERS("cuda") {
  ceiling::runners().add("cuda", ceiling::variants(),
                         [](ceiling::Problem& p, const ceiling::Variant& v) {
                           return std::make_unique<CeilingRunner>(p, v);
                         });
}

}  // namespace

}  // namespace gpucmp::cuda
