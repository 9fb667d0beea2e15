// OpenCL runner of heartwall: the frames staged once in pinned host memory;
// each launch uploads frame f and launches heartwall.cl's kernel for it
// (heartwall_template for frame 0, heartwall after), for f = 0 .. frames - 1,
// on the session's queue, as Rodinia's loop over frame_no does. The program
// is built once per state layout (registered below). The track, the final
// state (converted back to AoS) and the last frame's correlation maps are
// downloaded for validation.
#include <cstring>

#include "check.h"
#include "kernel_args.h"
#include "pinned_host.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/heartwall/heartwall.h"

namespace gpucmp::opencl {

namespace {

class HeartWallRunner : public TimedRunner {
 public:
  HeartWallRunner(heartwall::Problem& p, const heartwall::Variant& v)
      : p_(p),
        layout_(v.layout),
        program_(session().program(program_spec("heartwall", layout::program_name(v)))),
        template_(make_kernel(program_, "heartwall_template")),
        track_kernel_(make_kernel(program_, "heartwall")) {}

  void upload() override {
    const std::size_t frame_bytes = heartwall::frame_elems() * sizeof(float);
    const auto points = std::size_t(p_.points);
    frames_ =
        std::make_unique<PinnedHost>(p_.pixels.size() * sizeof(float), "heartwall frames (pinned)");
    std::memcpy(frames_->get(), p_.pixels.data(), p_.pixels.size() * sizeof(float));
    frame_ = make_buffer(CL_MEM_READ_ONLY, frame_bytes, "heartwall frame");
    start_ = make_buffer(CL_MEM_READ_ONLY, p_.start.size() * sizeof(int), "heartwall start points");
    state_ = make_buffer(CL_MEM_READ_WRITE, points * heartwall::kStateWords * sizeof(float),
                         "heartwall state");
    corr_ = make_buffer(CL_MEM_READ_WRITE, points * heartwall::kCorrElems * sizeof(float),
                        "heartwall correlation");
    tables_ = make_buffer(CL_MEM_READ_WRITE, points * 2 * heartwall::kTableElems * sizeof(int),
                          "heartwall tables");
    track_ = make_buffer(CL_MEM_WRITE_ONLY, p_.track.size() * sizeof(int), "heartwall track");
    check(clEnqueueWriteBuffer(session().queue(), start_, CL_TRUE, 0, p_.start.size() * sizeof(int),
                               p_.start.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer", "heartwall start points");
  }

  void download() override {
    read(track_, p_.track.data(), p_.track.size() * sizeof(int), "heartwall track");
    std::vector<float> state(std::size_t(p_.points) * heartwall::kStateWords);
    read(state_, state.data(), state.size() * sizeof(float), "heartwall state");
    layout::to_aos(state, layout_, p_.state, std::size_t(p_.points), heartwall::kStateWords);
    read(corr_, p_.corr.data(), p_.corr.size() * sizeof(float), "heartwall correlation");
  }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    const std::size_t frame_bytes = heartwall::frame_elems() * sizeof(float);
    const auto* frames = static_cast<const unsigned char*>(frames_->get());
    const std::size_t local = heartwall::kThreads, global = std::size_t(p_.points) * local;
    cl_command_queue q = session().queue();
    for (int f = 0; f < p_.frames; ++f) {
      check(clEnqueueWriteBuffer(q, frame_, CL_FALSE, 0, frame_bytes,
                                 frames + std::size_t(f) * frame_bytes, 0, nullptr, record()),
            "clEnqueueWriteBuffer", "heartwall frame " + std::to_string(f));
      if (f == 0)
        set_args(template_, "heartwall_template", frame_, start_, state_, cl_ulong(p_.points),
                 track_);
      else
        set_args(track_kernel_, "heartwall", frame_, cl_int(f), state_, cl_ulong(p_.points), corr_,
                 tables_, track_);
      check(clEnqueueNDRangeKernel(q, f == 0 ? template_.get() : track_kernel_.get(), 1, nullptr,
                                   &global, &local, 0, nullptr, record()),
            "clEnqueueNDRangeKernel",
            "heartwall " + layout::to_string(layout_) + ", frame " + std::to_string(f));
    }
  }

 private:
  static void read(const Buffer& from, void* to, std::size_t bytes, const char* what) {
    check(clEnqueueReadBuffer(session().queue(), from, CL_TRUE, 0, bytes, to, 0, nullptr, nullptr),
          "clEnqueueReadBuffer", what);
  }

  heartwall::Problem& p_;
  layout::Layout layout_;
  const BuiltProgram& program_;
  Kernel template_, track_kernel_;  // frame 0's, and every later frame's
  std::unique_ptr<PinnedHost> frames_;
  Buffer frame_, start_, state_, corr_, tables_, track_;
};

// Once per state layout: AoSoA is not offered (heartwall.h).
GPUCMP_PROGRAMS {
  specs.push_back(
      source("heartwall", "base", "heartwall.cl", "-DGPUCMP_LAYOUT=0 -DGPUCMP_TILE=32"));
  specs.push_back(
      source("heartwall", "base-soa", "heartwall.cl", "-DGPUCMP_LAYOUT=1 -DGPUCMP_TILE=32"));
}

GPUCMP_RUNNERS("opencl") {
  heartwall::runners().add("opencl", heartwall::variants(),
                           [](heartwall::Problem& p, const heartwall::Variant& v) {
                             return std::make_unique<HeartWallRunner>(p, v);
                           });
}

}  // namespace

}  // namespace gpucmp::opencl
