// CUDA runner of mmnaive: A and B uploaded once, one kernel launch per launch
// with the row's block shape. The harness resolves "driver" and "query" rows
// through suggested_group_size() (the occupancy API's block size, made a
// dividing shape) before it makes the runner that is timed.
#include "check.h"
#include "mmnaive_kernels.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/worksize/mmnaive.h"

namespace gpucmp::cuda {

namespace {

class MmNaiveRunner final : public TimedRunner {
 public:
  MmNaiveRunner(mmnaive::Problem& p, const mmnaive::Variant& v) : p_(p), shape_(v.local) {
    // A runner made for the "driver" shape still launches: with the
    // occupancy API's block size as a dividing shape, as the harness does.
    if (shape_.by_driver())
      shape_ = shape_for_block_size(suggested_group_size(), mmnaive::global_size(p.n), {});
  }

  void upload() override {
    const std::size_t bytes = p_.a.size() * sizeof(float);
    a_ = device_alloc(bytes, "mmnaive A");
    b_ = device_alloc(bytes, "mmnaive B");
    c_ = device_alloc(bytes, "mmnaive C");
    copy_and_wait(a_.get(), p_.a.data(), bytes, cudaMemcpyHostToDevice, stream(), "mmnaive A");
    copy_and_wait(b_.get(), p_.b.data(), bytes, cudaMemcpyHostToDevice, stream(), "mmnaive B");
  }
  int suggested_group_size() const override {
    int block = 0;
    check(mmnaive_occupancy_block_size(&block), "cudaOccupancyMaxPotentialBlockSize", "mmnaive");
    return block;
  }
  void download() override {
    copy_and_wait(p_.c.data(), c_.get(), p_.c.size() * sizeof(float), cudaMemcpyDeviceToHost,
                  stream(), "mmnaive C");
  }

 protected:
  void enqueue() override {
    const dim3 block(unsigned(shape_.x), unsigned(shape_.y));
    const dim3 grid(unsigned(p_.n / shape_.x), unsigned(p_.n / shape_.y));
    launch_mmnaive(static_cast<float*>(c_.get()), static_cast<const float*>(a_.get()),
                   static_cast<const float*>(b_.get()), p_.n, grid, block, stream());
    check(cudaGetLastError(), "mmnaive<<<>>>", "mmnaive block " + to_string(shape_, 2));
  }

 private:
  mmnaive::Problem& p_;
  LocalShape shape_;
  DevicePtr a_, b_, c_;
};

GPUCMP_RUNNERS("cuda") {
  mmnaive::runners().add("cuda", mmnaive::variants(),
                         [](mmnaive::Problem& p, const mmnaive::Variant& v) {
                           return std::make_unique<MmNaiveRunner>(p, v);
                         });
}

}  // namespace

}  // namespace gpucmp::cuda
