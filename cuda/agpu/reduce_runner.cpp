// CUDA runners of reduce: the words uploaded once; per launch the algorithm's
// kernels (reduce.cu) or CUB's DeviceReduce::Sum (cub_reduce.cu, variant
// "cub", CUDA only), the one-word sum downloaded after.
#include <algorithm>

#include "check.h"
#include "reduce_kernels.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/agpu/reduce.h"

namespace gpucmp::cuda {

namespace {

class ReduceRunner : public TimedRunner {
 public:
  ReduceRunner(reduce::Problem& p, const reduce::Variant& v) : p_(p), variant_(v.name) {}

  void upload() override {
    const std::size_t bytes = p_.n * sizeof(std::uint32_t);
    const std::size_t scratch =
        std::max<std::size_t>(p_.n / reduce::kBlock + 1, std::size_t(p_.grid_blocks));
    in_ = device_alloc(bytes, "reduce words");
    out_ = device_alloc(sizeof(std::uint32_t), "reduce sum");
    if (variant_ == "cub") {
      temp_bytes_ = std::max<std::size_t>(cub_reduce_temp_bytes(p_.type, p_.n), 1);
      a_ = device_alloc(temp_bytes_, "reduce/cub temporary storage");
    } else {
      a_ = device_alloc(scratch * sizeof(std::uint32_t), "reduce partials");
      b_ = device_alloc(scratch * sizeof(std::uint32_t), "reduce partials");
    }
    copy_and_wait(in_.get(), p_.words.data(), bytes, cudaMemcpyHostToDevice, stream(),
                  "reduce words");
  }
  void download() override {
    copy_and_wait(&p_.result, out_.get(), sizeof p_.result, cudaMemcpyDeviceToHost, stream(),
                  "reduce sum");
  }

 protected:
  void enqueue() override {
    if (variant_ == "cub")
      launch_cub_reduce(p_.type, in_.get(), out_.get(), p_.n, a_.get(), temp_bytes_, stream());
    else
      launch_reduce(variant_, p_.type, in_.get(), a_.get(), b_.get(), out_.get(), p_.n,
                    p_.grid_blocks, stream());
    check(cudaGetLastError(), "reduce<<<>>>", "reduce/" + variant_);
  }

 private:
  reduce::Problem& p_;
  std::string variant_;
  DevicePtr in_, out_, a_, b_;
  std::size_t temp_bytes_ = 0;
};

GPUCMP_RUNNERS("cuda") {
  const auto make = [](reduce::Problem& p, const reduce::Variant& v) {
    return std::make_unique<ReduceRunner>(p, v);
  };
  reduce::runners().add("cuda", reduce::variants(), make);
  reduce::runners().add("cuda", {{"cub"}}, make);
}

}  // namespace

}  // namespace gpucmp::cuda
