// CUDA runner of trapezoid: the partials zeroed once at upload, one kernel
// launch per launch with the row's block size (the occupancy API's, made a
// divisor of the items, for the "driver" rows).
#include "check.h"
#include "kernel_resources_of.h"
#include "rect_copy.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "trapezoid_kernels.h"
#include "workloads/worksize/trapezoid.h"

namespace gpucmp::cuda {

namespace {

LocalShape block_shape(const trapezoid::Variant& v, const GlobalSize& global) {
  if (!v.local.by_driver()) return v.local;
  int block = 0;
  check(trapezoid_occupancy_block_size(&block), "cudaOccupancyMaxPotentialBlockSize", "trapezoid");
  return shape_for_block_size(block, global, LocalLimits{});
}

class TrapezoidRunner : public TimedRunner {
 public:
  TrapezoidRunner(trapezoid::Problem& p, const trapezoid::Variant& v)
      : p_(p), shape_(block_shape(v, trapezoid::global_size(p.items))), part_(v.part) {}

  // Allocates and zeroes once (the kernel reads no input).
  void upload() override {
    if (partials_.get()) return;
    const std::size_t bytes = p_.items * sizeof(float);
    partials_ = device_alloc(bytes, "trapezoid partials");
    // Only the blocks' first entries are ever written: the rest must read 0.
    check(cudaMemsetAsync(partials_.get(), 0, bytes, stream()), "cudaMemsetAsync",
          "trapezoid partials");
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize", "trapezoid partials");
  }
  void download() override {
    download_rect(p_.partials, static_cast<float*>(partials_.get()),
                  static_cast<long long>(p_.items), trapezoid::items_rect(p_, part_), stream(),
                  "trapezoid partials");
  }

  int suggested_group_size() const override {
    int block = 0;
    check(trapezoid_occupancy_block_size(&block), "cudaOccupancyMaxPotentialBlockSize",
          "trapezoid");
    return block;
  }
  KernelResources kernel_resources() const override {
    return resources_of(trapezoid_attributes, "trapezoid");
  }

 protected:
  void enqueue() override {
    const Rect r = trapezoid::items_rect(p_, part_);
    const dim3 block(unsigned(shape_.x));
    const dim3 grid(unsigned(r.w / shape_.x));
    launch_trapezoid(static_cast<float*>(partials_.get()), p_.h, unsigned(r.x), grid, block,
                     stream());
    check(cudaGetLastError(), "trapezoid_sum<<<>>>", "trapezoid block " + to_string(shape_, 1));
  }

 private:
  trapezoid::Problem& p_;
  LocalShape shape_;
  Part part_;
  DevicePtr partials_;
};

GPUCMP_RUNNERS("cuda") {
  trapezoid::runners().add("cuda", trapezoid::variants(),
                           [](trapezoid::Problem& p, const trapezoid::Variant& v) {
                             return std::make_unique<TrapezoidRunner>(p, v);
                           });
}

}  // namespace

}  // namespace gpucmp::cuda
