// CUDA runner of heartwall: the frames staged once in pinned host memory;
// each launch uploads frame f and launches heartwall.cu's kernel for it
// (the template kernel for frame 0, the tracking kernel after), for f = 0 ..
// frames - 1, on the runner's stream, as Rodinia's loop over frame_no does.
// The track, the final state (converted back to AoS) and the last frame's
// correlation maps are downloaded for validation.
#include <cstring>

#include "check.h"
#include "heartwall_kernels.h"
#include "runner_table.h"
#include "timed_runner.h"
#include "workloads/heartwall/heartwall.h"

namespace gpucmp::cuda {

namespace {

class HeartWallRunner : public TimedRunner {
 public:
  HeartWallRunner(heartwall::Problem& p, const heartwall::Variant& v) : p_(p), layout_(v.layout) {}

  void upload() override {
    const std::size_t frame_bytes = heartwall::frame_elems() * sizeof(float);
    const auto points = std::size_t(p_.points);
    frames_ = pinned_alloc(p_.pixels.size() * sizeof(float), "heartwall frames (pinned)");
    std::memcpy(frames_.get(), p_.pixels.data(), p_.pixels.size() * sizeof(float));
    frame_ = device_alloc(frame_bytes, "heartwall frame");
    start_ = device_alloc(p_.start.size() * sizeof(int), "heartwall start points");
    state_ = device_alloc(points * heartwall::kStateWords * sizeof(float), "heartwall state");
    corr_ = device_alloc(points * heartwall::kCorrElems * sizeof(float), "heartwall correlation");
    tables_ = device_alloc(points * 2 * heartwall::kTableElems * sizeof(int), "heartwall tables");
    track_ = device_alloc(p_.track.size() * sizeof(int), "heartwall track");
    copy_and_wait(start_.get(), p_.start.data(), p_.start.size() * sizeof(int),
                  cudaMemcpyHostToDevice, stream(), "heartwall start points");
  }

  void download() override {
    copy_and_wait(p_.track.data(), track_.get(), p_.track.size() * sizeof(int),
                  cudaMemcpyDeviceToHost, stream(), "heartwall track");
    std::vector<float> state(std::size_t(p_.points) * heartwall::kStateWords);
    copy_and_wait(state.data(), state_.get(), state.size() * sizeof(float), cudaMemcpyDeviceToHost,
                  stream(), "heartwall state");
    layout::to_aos(state, layout_, p_.state, std::size_t(p_.points), heartwall::kStateWords);
    copy_and_wait(p_.corr.data(), corr_.get(), p_.corr.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, stream(), "heartwall correlation");
  }

 protected:
  void enqueue() override {
    const std::size_t frame_bytes = heartwall::frame_elems() * sizeof(float);
    const auto* frames = static_cast<const unsigned char*>(frames_.get());
    for (int f = 0; f < p_.frames; ++f) {
      check(cudaMemcpyAsync(frame_.get(), frames + std::size_t(f) * frame_bytes, frame_bytes,
                            cudaMemcpyHostToDevice, stream()),
            "cudaMemcpyAsync", "heartwall frame " + std::to_string(f));
      launch_heartwall(layout_, static_cast<const float*>(frame_.get()), f,
                       static_cast<const int*>(start_.get()), static_cast<float*>(state_.get()),
                       p_.points, static_cast<float*>(corr_.get()),
                       static_cast<int*>(tables_.get()), static_cast<int*>(track_.get()), stream());
      check(cudaGetLastError(), "heartwall<<<>>>",
            "heartwall " + layout::to_string(layout_) + ", frame " + std::to_string(f));
    }
  }

 private:
  heartwall::Problem& p_;
  layout::Layout layout_;
  PinnedPtr frames_;
  DevicePtr frame_, start_, state_, corr_, tables_, track_;
};

GPUCMP_RUNNERS("cuda") {
  heartwall::runners().add("cuda", heartwall::variants(),
                           [](heartwall::Problem& p, const heartwall::Variant& v) {
                             return std::make_unique<HeartWallRunner>(p, v);
                           });
}

}  // namespace

}  // namespace gpucmp::cuda
