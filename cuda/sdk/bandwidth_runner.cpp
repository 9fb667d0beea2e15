// CUDA runners of bandwidth: cudaMemcpyAsync from pageable (malloc) or pinned
// (cudaHostAlloc) host memory, and device to device.
#include <cstring>
#include <vector>

#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/sdk/bandwidth.h"

namespace gpucmp::cuda {

namespace {

using bandwidth::Direction;
using bandwidth::HostMemory;

class BandwidthRunner : public TimedRunner {
 public:
  BandwidthRunner(bandwidth::Problem& p, Direction d, HostMemory m)
      : p_(p), dir_(d), mem_(m), bytes_(p.bytes) {}

  void upload() override {
    device_ = device_alloc(bytes_, "bandwidth device buffer");
    if (dir_ == Direction::d2d) device2_ = device_alloc(bytes_, "bandwidth d2d destination");
    if (mem_ == HostMemory::pinned) {
      pinned_ = pinned_alloc(bytes_, "bandwidth pinned host buffer");
      host_ = pinned_.get();
      std::memset(host_, 0, bytes_);
    } else if (mem_ == HostMemory::pageable) {
      pageable_.assign(p_.source.size(), 0);
      host_ = pageable_.data();
    }
    if (dir_ == Direction::h2d) {
      std::memcpy(host_, p_.source.data(), bytes_);
    } else {  // the transfer starts on the device
      copy_and_wait(device_.get(), p_.source.data(), bytes_, cudaMemcpyHostToDevice, stream(),
                    "bandwidth source");
    }
  }

  void download() override {
    if (dir_ == Direction::d2h) {
      std::memcpy(p_.result.data(), host_, bytes_);
      return;
    }
    const void* arrived = dir_ == Direction::d2d ? device2_.get() : device_.get();
    copy_and_wait(p_.result.data(), arrived, bytes_, cudaMemcpyDeviceToHost, stream(),
                  "bandwidth result");
  }

 protected:
  void enqueue() override {
    switch (dir_) {
      case Direction::h2d:
        check(cudaMemcpyAsync(device_.get(), host_, bytes_, cudaMemcpyHostToDevice, stream()),
              "cudaMemcpyAsync", "h2d");
        break;
      case Direction::d2h:
        check(cudaMemcpyAsync(host_, device_.get(), bytes_, cudaMemcpyDeviceToHost, stream()),
              "cudaMemcpyAsync", "d2h");
        break;
      case Direction::d2d:
        check(cudaMemcpyAsync(device2_.get(), device_.get(), bytes_, cudaMemcpyDeviceToDevice,
                              stream()),
              "cudaMemcpyAsync", "d2d");
        break;
    }
  }

 private:
  bandwidth::Problem& p_;
  Direction dir_;
  HostMemory mem_;
  std::size_t bytes_;
  DevicePtr device_, device2_;
  PinnedPtr pinned_;
  std::vector<std::uint32_t> pageable_;
  void* host_ = nullptr;
};

GPUCMP_RUNNERS("cuda") {
  bandwidth::runners().add("cuda", bandwidth::variants(),
                           [](bandwidth::Problem& p, const bandwidth::Variant& v) {
                             return std::make_unique<BandwidthRunner>(p, v.direction, v.memory);
                           });
}

}  // namespace

}  // namespace gpucmp::cuda
