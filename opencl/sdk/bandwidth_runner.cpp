// OpenCL runners of bandwidth: clEnqueueWriteBuffer / ReadBuffer / CopyBuffer
// from pageable or pinned host memory, and map / memcpy / unmap.
#include <cstring>

#include "check.h"
#include "pinned_host.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/sdk/bandwidth.h"

namespace gpucmp::opencl {

namespace {

using bandwidth::Direction;
using bandwidth::HostMemory;

class BandwidthRunner : public TimedRunner {
 public:
  BandwidthRunner(bandwidth::Problem& p, Direction d, HostMemory m)
      : p_(p), dir_(d), mem_(m), bytes_(p.bytes) {}

  void upload() override {
    cl_command_queue q = session().queue();
    device_ = make_buffer(CL_MEM_READ_WRITE, bytes_, "bandwidth device buffer");
    if (dir_ == Direction::d2d)
      device2_ = make_buffer(CL_MEM_READ_WRITE, bytes_, "bandwidth d2d destination");
    if (mem_ == HostMemory::pinned) {
      pinned_ = std::make_unique<PinnedHost>(bytes_, "pinned host");
      host_ = pinned_->get();
    } else if (mem_ != HostMemory::device) {
      pageable_.assign(p_.source.size(), 0);
      host_ = pageable_.data();
    }
    if (dir_ == Direction::h2d) {
      if (host_) std::memcpy(host_, p_.source.data(), bytes_);
    } else {  // the transfer starts on the device
      check(clEnqueueWriteBuffer(q, device_, CL_TRUE, 0, bytes_, p_.source.data(), 0, nullptr,
                                 nullptr),
            "clEnqueueWriteBuffer", "bandwidth source");
    }
  }

  void download() override {
    cl_command_queue q = session().queue();
    if (dir_ == Direction::d2h) {
      std::memcpy(p_.result.data(), host_, bytes_);
      return;
    }
    const Buffer& arrived = dir_ == Direction::d2d ? device2_ : device_;
    check(
        clEnqueueReadBuffer(q, arrived, CL_TRUE, 0, bytes_, p_.result.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer", "bandwidth result");
  }

 protected:
  void enqueue() override {
    cl_command_queue q = session().queue();
    if (dir_ == Direction::d2d) {
      check(clEnqueueCopyBuffer(q, device_, device2_, 0, 0, bytes_, 0, nullptr, record()),
            "clEnqueueCopyBuffer", "d2d");
    } else if (mem_ == HostMemory::mapped) {
      enqueue_mapped(q);
    } else if (dir_ == Direction::h2d) {
      check(clEnqueueWriteBuffer(q, device_, CL_FALSE, 0, bytes_, host_, 0, nullptr, record()),
            "clEnqueueWriteBuffer", "h2d");
    } else {
      check(clEnqueueReadBuffer(q, device_, CL_FALSE, 0, bytes_, host_, 0, nullptr, record()),
            "clEnqueueReadBuffer", "d2h");
    }
  }

 private:
  // Map the device buffer, memcpy on the host, unmap: all inside the timed span.
  void enqueue_mapped(cl_command_queue q) {
    const bool h2d = dir_ == Direction::h2d;
    cl_int err = CL_SUCCESS;
    void* mapped =
        clEnqueueMapBuffer(q, device_, CL_TRUE, h2d ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ,
                           0, bytes_, 0, nullptr, record(), &err);
    check(err, "clEnqueueMapBuffer", h2d ? "h2d-mapped" : "d2h-mapped");
    if (h2d)
      std::memcpy(mapped, host_, bytes_);
    else
      std::memcpy(host_, mapped, bytes_);
    check(clEnqueueUnmapMemObject(q, device_, mapped, 0, nullptr, record()),
          "clEnqueueUnmapMemObject", h2d ? "h2d-mapped" : "d2h-mapped");
  }

  bandwidth::Problem& p_;
  Direction dir_;
  HostMemory mem_;
  std::size_t bytes_;
  Buffer device_, device2_;
  std::unique_ptr<PinnedHost> pinned_;
  std::vector<std::uint32_t> pageable_;
  void* host_ = nullptr;
};

// The shared variants, then OpenCL's own: map/unmap transfers (mapped).
GPUCMP_RUNNERS("opencl") {
  const auto make = [](bandwidth::Problem& p, const bandwidth::Variant& v) {
    return std::make_unique<BandwidthRunner>(p, v.direction, v.memory);
  };
  bandwidth::runners().add("opencl", bandwidth::variants(), make);
  bandwidth::runners().add("opencl",
                           {bandwidth::variant(Direction::h2d, HostMemory::mapped),
                            bandwidth::variant(Direction::d2h, HostMemory::mapped)},
                           make);
}

}  // namespace

}  // namespace gpucmp::opencl
