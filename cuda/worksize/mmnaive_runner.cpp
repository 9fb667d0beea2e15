// CUDA runner of mmnaive: A and B uploaded once, one kernel launch per launch
// with the row's block shape; a split row's part uploads, computes and
// downloads only its block (mmnaive::a_rect, b_rect, c_rect). The harness resolves "driver" and
// "query" rows through suggested_group_size() (the occupancy API's block size, made a dividing
// shape) before it makes the runner that is timed.
#include "check.h"
#include "kernel_resources_of.h"
#include "mmnaive_kernels.h"
#include "rect_copy.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/worksize/mmnaive.h"

namespace gpucmp::cuda {

namespace {

class MmNaiveRunner final : public TimedRunner {
 public:
  MmNaiveRunner(mmnaive::Problem& p, const mmnaive::Variant& v)
      : p_(p), shape_(v.local), part_(v.part) {
    // A runner made for the "driver" shape still launches: with the
    // occupancy API's block size as a dividing shape, as the harness does.
    if (shape_.by_driver())
      shape_ = shape_for_block_size(suggested_group_size(), mmnaive::global_size(p.n), {});
  }

  // Allocates once; uploads what the part reads (all of A and B for a whole row).
  void upload() override {
    if (!a_.get()) {
      const std::size_t bytes = p_.a.size() * sizeof(float);
      a_ = device_alloc(bytes, "mmnaive A");
      b_ = device_alloc(bytes, "mmnaive B");
      c_ = device_alloc(bytes, "mmnaive C");
    }
    upload_rect(a(), p_.a, p_.n, mmnaive::a_rect(p_.n, part_), stream(), "mmnaive A");
    upload_rect(b(), p_.b, p_.n, mmnaive::b_rect(p_.n, part_), stream(), "mmnaive B");
  }
  int suggested_group_size() const override {
    int block = 0;
    check(mmnaive_occupancy_block_size(&block), "cudaOccupancyMaxPotentialBlockSize", "mmnaive");
    return block;
  }
  KernelResources kernel_resources() const override {
    return resources_of(mmnaive_attributes, "mmnaive");
  }
  void download() override {
    download_rect(p_.c, c(), p_.n, mmnaive::c_rect(p_.n, part_), stream(), "mmnaive C");
  }

 protected:
  void enqueue() override {
    const Rect out = mmnaive::c_rect(p_.n, part_);
    const dim3 block(unsigned(shape_.x), unsigned(shape_.y));
    const dim3 grid(unsigned(out.w / shape_.x), unsigned(out.h / shape_.y));
    launch_mmnaive(c(), a(), b(), p_.n, int(out.x), int(out.y), grid, block, stream());
    check(cudaGetLastError(), "mmnaive<<<>>>", "mmnaive block " + to_string(shape_, 2));
  }

 private:
  float* a() const { return static_cast<float*>(a_.get()); }
  float* b() const { return static_cast<float*>(b_.get()); }
  float* c() const { return static_cast<float*>(c_.get()); }

  mmnaive::Problem& p_;
  LocalShape shape_;
  Part part_;
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
