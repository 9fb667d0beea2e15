// The one yardstick (docs/DESIGN.md, "Fairness rules"): an OpenCL batch asks
// the API for exactly two timestamps, a marker before its first command and
// one after its last, however many commands it enqueues; an event per command
// only with launch spans on (--launch-gaps). Runs on the first OpenCL device
// (PoCL without a GPU); skipped where there is none.
#include <gtest/gtest.h>

#include <memory>

#include "opencl/check.h"
#include "opencl/session.h"
#include "opencl/timed_runner.h"
#include "runner.h"

namespace gpucmp::opencl {
namespace {

constexpr int kCommandsPerLaunch = 3;

// A launch of three commands (fills of a small buffer), each given record().
class ThreeFills : public TimedRunner {
 public:
  void upload() override { buffer_ = make_buffer(CL_MEM_READ_WRITE, 4096, "test buffer"); }
  void download() override {}

 protected:
  void enqueue() override {
    const cl_uint pattern = 7;
    for (int i = 0; i < kCommandsPerLaunch; ++i)
      check(clEnqueueFillBuffer(session().queue(), buffer_.get(), &pattern, sizeof pattern, 0, 4096,
                                0, nullptr, record()),
            "clEnqueueFillBuffer", "test buffer");
  }

 private:
  Buffer buffer_;
};

class OpenClTimedRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto found = platforms();
    if (found.empty() || devices(found.front()).empty()) GTEST_SKIP() << "no OpenCL device";
    set_session(std::make_unique<Session>(found.front(), devices(found.front()).front(), ""));
    runner_.upload();
  }
  void TearDown() override { set_launch_spans(false); }
  ThreeFills runner_;
};

TEST_F(OpenClTimedRunner, ABatchAsksForItsTwoEndsOnly) {
  for (int launches : {1, 10, 100}) {
    const BatchTiming t = runner_.time_batch(launches);
    EXPECT_EQ(t.timing_events, 2) << launches << " launches";
    EXPECT_EQ(t.commands, launches * kCommandsPerLaunch);
    EXPECT_GT(t.device_s, 0);
    EXPECT_LT(t.launches_s, 0) << "no launch spans without --launch-gaps";
  }
}

TEST_F(OpenClTimedRunner, LaunchSpansAskAnEventPerCommand) {
  set_launch_spans(true);
  const BatchTiming t = runner_.time_batch(10);
  EXPECT_EQ(t.timing_events, 2 + 10 * kCommandsPerLaunch);
  EXPECT_EQ(t.commands, 10 * kCommandsPerLaunch);
  EXPECT_GE(t.launches_s, 0);
  EXPECT_LE(t.launches_s, t.device_s * 1.0001);
}

}  // namespace
}  // namespace gpucmp::opencl
