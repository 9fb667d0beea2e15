// CUDA runner of sort: the input uploaded once into an untouched buffer; one
// launch = a device-to-device copy restoring the unsorted data, then one
// kernel launch per pass, all on the runner's stream, with the row's block
// size (the occupancy API's, made a divisor of n/2, for the "driver" rows).
#include "check.h"
#include "kernel_resources_of.h"
#include "runner_table.h"
#include "sort_kernels.h"
#include "timed_runner.h"
#include "workloads/worksize/sort.h"

namespace gpucmp::cuda {

namespace {

LocalShape block_shape(const sort::Variant& v, const GlobalSize& global) {
  if (!v.local.by_driver()) return v.local;
  int block = 0;
  check(bitonic_pass_occupancy_block_size(&block), "cudaOccupancyMaxPotentialBlockSize", "sort");
  return shape_for_block_size(block, global, LocalLimits{});
}

class SortRunner : public TimedRunner {
 public:
  SortRunner(sort::Problem& p, const sort::Variant& v)
      : p_(p), shape_(block_shape(v, sort::global_size(p.n))) {}

  void upload() override {
    const std::size_t bytes = p_.n * sizeof(float);
    input_ = device_alloc(bytes, "sort input");
    data_ = device_alloc(bytes, "sort data");
    copy_and_wait(input_.get(), p_.input.data(), bytes, cudaMemcpyHostToDevice, stream(),
                  "sort input");
  }
  void download() override {
    copy_and_wait(p_.output.data(), data_.get(), p_.n * sizeof(float), cudaMemcpyDeviceToHost,
                  stream(), "sort data");
  }

  int suggested_group_size() const override {
    int block = 0;
    check(bitonic_pass_occupancy_block_size(&block), "cudaOccupancyMaxPotentialBlockSize", "sort");
    return block;
  }
  KernelResources kernel_resources() const override {
    return resources_of(bitonic_pass_attributes, "sort");
  }

 protected:
  void enqueue() override {
    check(cudaMemcpyAsync(data_.get(), input_.get(), p_.n * sizeof(float), cudaMemcpyDeviceToDevice,
                          stream()),
          "cudaMemcpyAsync", "sort restore");
    const auto n = unsigned(p_.n);
    const dim3 block(unsigned(shape_.x));
    const dim3 grid(n / 2 / unsigned(shape_.x));
    auto* a = static_cast<float*>(data_.get());
    for (unsigned k = 2; k <= n; k <<= 1)
      for (unsigned j = k >> 1; j > 0; j >>= 1) launch_bitonic_pass(a, k, j, grid, block, stream());
    // A failed launch's error stays until read: one check covers the passes.
    check(cudaGetLastError(), "bitonic_pass<<<>>>", "sort block " + to_string(shape_, 1));
  }

 private:
  sort::Problem& p_;
  LocalShape shape_;
  DevicePtr input_, data_;
};

GPUCMP_RUNNERS("cuda") {
  sort::runners().add("cuda", sort::variants(), [](sort::Problem& p, const sort::Variant& v) {
    return std::make_unique<SortRunner>(p, v);
  });
}

}  // namespace

}  // namespace gpucmp::cuda
