// CUDA runner of bilinear: the input uploaded once, one kernel launch per launch
// with the row's block shape. The harness resolves "driver" and "query" rows
// through suggested_group_size() (the occupancy API's block size, made a
// dividing shape) before it makes the runner that is timed.
#include "bilinear_kernels.h"
#include "check.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/worksize/bilinear.h"

namespace gpucmp::cuda {

namespace {

class BilinearRunner final : public TimedRunner {
 public:
  BilinearRunner(bilinear::Problem& p, const bilinear::Variant& v) : p_(p), shape_(v.local) {
    // A runner made for the "driver" shape still launches: with the
    // occupancy API's block size as a dividing shape, as the harness does.
    if (shape_.by_driver())
      shape_ = shape_for_block_size(suggested_group_size(), bilinear::global_size(p.out_w), {});
  }

  void upload() override {
    const std::size_t in_bytes = p_.in.size() * sizeof(float);
    in_ = device_alloc(in_bytes, "bilinear in");
    out_ = device_alloc(p_.out.size() * sizeof(float), "bilinear out");
    copy_and_wait(in_.get(), p_.in.data(), in_bytes, cudaMemcpyHostToDevice, stream(),
                  "bilinear in");
  }
  int suggested_group_size() const override {
    int block = 0;
    check(bilinear_occupancy_block_size(&block), "cudaOccupancyMaxPotentialBlockSize", "bilinear");
    return block;
  }
  void download() override {
    copy_and_wait(p_.out.data(), out_.get(), p_.out.size() * sizeof(float), cudaMemcpyDeviceToHost,
                  stream(), "bilinear out");
  }

 protected:
  void enqueue() override {
    const dim3 block(unsigned(shape_.x), unsigned(shape_.y));
    const dim3 grid(unsigned(p_.out_w / shape_.x), unsigned(p_.out_h / shape_.y));
    launch_bilinear(static_cast<float*>(out_.get()), static_cast<const float*>(in_.get()), p_.in_w,
                    p_.in_h, p_.out_w, p_.scale_x, p_.scale_y, grid, block, stream());
    check(cudaGetLastError(), "bilinear<<<>>>", "bilinear block " + to_string(shape_, 2));
  }

 private:
  bilinear::Problem& p_;
  LocalShape shape_;
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
