// CUDA runner of bilinear: the input uploaded once, one kernel launch per launch
// with the row's block shape; a split row's part moves and computes only its
// block (bilinear::in_rect, out_rect). The harness resolves "driver" and "query" rows
// through suggested_group_size() (the occupancy API's block size, made a
// dividing shape) before it makes the runner that is timed.
#include "bilinear_kernels.h"
#include "check.h"
#include "kernel_resources_of.h"
#include "rect_copy.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/worksize/bilinear.h"

namespace gpucmp::cuda {

namespace {

class BilinearRunner final : public TimedRunner {
 public:
  BilinearRunner(bilinear::Problem& p, const bilinear::Variant& v)
      : p_(p), shape_(v.local), part_(v.part) {
    // A runner made for the "driver" shape still launches: with the
    // occupancy API's block size as a dividing shape, as the harness does.
    if (shape_.by_driver())
      shape_ = shape_for_block_size(suggested_group_size(), bilinear::global_size(p.out_w), {});
  }

  // Allocates once; uploads what the part reads (all of the input for a whole row).
  void upload() override {
    if (!in_.get()) {
      in_ = device_alloc(p_.in.size() * sizeof(float), "bilinear in");
      out_ = device_alloc(p_.out.size() * sizeof(float), "bilinear out");
    }
    upload_rect(in(), p_.in, p_.in_w, bilinear::in_rect(p_, part_), stream(), "bilinear in");
  }
  int suggested_group_size() const override {
    int block = 0;
    check(bilinear_occupancy_block_size(&block), "cudaOccupancyMaxPotentialBlockSize", "bilinear");
    return block;
  }
  KernelResources kernel_resources() const override {
    return resources_of(bilinear_attributes, "bilinear");
  }
  void download() override {
    download_rect(p_.out, out(), p_.out_w, bilinear::out_rect(p_, part_), stream(), "bilinear out");
  }

 protected:
  void enqueue() override {
    const Rect r = bilinear::out_rect(p_, part_);
    const dim3 block(unsigned(shape_.x), unsigned(shape_.y));
    const dim3 grid(unsigned(r.w / shape_.x), unsigned(r.h / shape_.y));
    launch_bilinear(out(), in(), p_.in_w, p_.in_h, p_.out_w, p_.scale_x, p_.scale_y, int(r.x),
                    int(r.y), grid, block, stream());
    check(cudaGetLastError(), "bilinear<<<>>>", "bilinear block " + to_string(shape_, 2));
  }

 private:
  float* in() const { return static_cast<float*>(in_.get()); }
  float* out() const { return static_cast<float*>(out_.get()); }

  bilinear::Problem& p_;
  LocalShape shape_;
  Part part_;
  DevicePtr in_, out_;
};

GPUCMP_RUNNERS("cuda") {
  bilinear::runners().add("cuda", bilinear::variants(),
                          [](bilinear::Problem& p, const bilinear::Variant& v) {
                            return std::make_unique<BilinearRunner>(p, v);
                          });
}

}  // namespace

}  // namespace gpucmp::cuda
