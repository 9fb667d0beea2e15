// CUDA runners of scan: the words uploaded once; per launch the alpha
// algorithm's three kernels or lookback's one (scan.cu), onepass's one
// (scan_onepass.cu), or CUB's
// DeviceScan::InclusiveSum (cub_scan.cu, variant "cub", CUDA only); the
// prefix sums downloaded after.
#include <algorithm>
#include <utility>

#include "check.h"
#include "runner_table.h"
#include "scan_kernels.h"
#include "timed_runner.h"
#include "workloads/agpu/scan.h"

namespace gpucmp::cuda {

namespace {

class ScanRunner : public TimedRunner {
 public:
  ScanRunner(scan::Problem& p, scan::Variant v) : p_(p), v_(std::move(v)) {}

  void upload() override {
    const std::size_t bytes = p_.n * sizeof(std::uint32_t);
    in_ = device_alloc(bytes, "scan words");
    out_ = device_alloc(bytes, "scan prefix sums");
    if (v_.name == "cub") {
      temp_bytes_ = std::max<std::size_t>(cub_scan_temp_bytes(p_.type, p_.n), 1);
      scratch_ = device_alloc(temp_bytes_, "scan/cub temporary storage");
    } else if (scan::has_tile_status(v_)) {
      scratch_ = device_alloc(scan::lookback_status_bytes(p_.n, v_.alpha), "scan tile status");
    } else {
      scratch_ = device_alloc(scan::tiles(p_.n, v_.alpha) * sizeof(std::uint32_t), "scan sums");
    }
    copy_and_wait(in_.get(), p_.words.data(), bytes, cudaMemcpyHostToDevice, stream(),
                  "scan words");
  }
  void download() override {
    copy_and_wait(p_.out.data(), out_.get(), p_.n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                  stream(), "scan prefix sums");
  }

 protected:
  void enqueue() override {
    if (v_.name == "cub")
      launch_cub_scan(p_.type, in_.get(), out_.get(), p_.n, scratch_.get(), temp_bytes_, stream());
    else if (v_.name == "lookback")
      launch_scan_lookback(p_.type, in_.get(), out_.get(), scratch_.get(), p_.n, v_.alpha,
                           stream());
    else if (v_.name == "onepass")
      launch_scan_onepass(p_.type, in_.get(), out_.get(), scratch_.get(), p_.n, v_.alpha, v_.spin,
                          stream());
    else
      launch_scan_alpha(p_.type, in_.get(), out_.get(), scratch_.get(), p_.n, v_.alpha, v_.batched,
                        stream());
    check(cudaGetLastError(), "scan<<<>>>", "scan/" + v_.name);
  }

 private:
  scan::Problem& p_;
  scan::Variant v_;
  DevicePtr in_, out_, scratch_;
  std::size_t temp_bytes_ = 0;
};

GPUCMP_RUNNERS("cuda") {
  const auto make = [](scan::Problem& p, const scan::Variant& v) {
    return std::make_unique<ScanRunner>(p, v);
  };
  scan::runners().add("cuda", scan::variants(), make);
  scan::runners().add("cuda", {{"cub"}}, make);
}

}  // namespace

}  // namespace gpucmp::cuda
