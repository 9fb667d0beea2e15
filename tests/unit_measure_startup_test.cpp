// Unit tests of measure_startup() on a fake Api driven through a real Google
// Benchmark run: a fresh start per sample, the context time reported apart, a
// failed validation. Expected values are worked out by hand in the comments.
//
// Process-wide state: as in unit_measure_test.cpp, a failed run is recorded in
// gpucmp::outcome() (exit code 1), which has no reset.

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "api.h"
#include "measure.h"
#include "measure_fixtures.h"
#include "measure_run_fixtures.h"
#include "naming.h"
#include "options.h"
#include "outcome.h"
#include "startup.h"

namespace gpucmp {
namespace {

using test::bench;
using test::BenchRun;
using test::counter;
using test::fake_measurement;
using test::FakeRunner;
using test::has_counter;
using test::is_error;
using test::message;
using test::run_benchmark;

// ---- measure_startup() on a fake Api -------------------------------------------

class FakeApi : public Api {
 public:
  std::string name() const override { return "opencl"; }
  void list_devices(std::ostream&) const override {}
  void select(const Options&) override {}
  std::string unavailable() const override { return ""; }
  DeviceInfo info() const override { return {}; }
  void add_context(ContextList&) const override {}
  bool has_startup(const std::string&, const std::string&) const override { return true; }
  double start_fresh() override {
    log.emplace_back("start_fresh");
    return context_ms;
  }
  std::vector<std::string> log;
  double context_ms = 0;
};

// Each call makes a fresh FakeRunner (build 7.5 ms) logging into api.log.
Prepare fake_prepare(FakeApi& api, int valid_calls = 1000) {
  return [&api, valid_calls](const DeviceInfo&) {
    api.log.emplace_back("prepare");
    Prepared p;
    p.m = fake_measurement(api.log, valid_calls);
    p.runner = std::make_unique<FakeRunner>(api.log, 1.0, 7.5);
    return p;
  };
}

TEST(MeasureStartup, FreshStartPerSampleAndMedianCounters) {
  FakeApi api;
  const Prepare prepare = fake_prepare(api);
  const BenchRun r = run_benchmark(
      startup_name(bench("fake", "opencl", "base", "100")), [&](benchmark::State& state) {
        measure_startup(state, api, DeviceInfo{}, BenchName{"w", "fake", "v", {}}, prepare, 3);
      });
  ASSERT_FALSE(is_error(r)) << message(r);
  std::vector<std::string> want;
  for (int i = 0; i < 3; ++i)
    for (const char* call : {"start_fresh", "prepare", "upload", "time_batch 1", "time_batch 1",
                             "clear_output", "download", "validate"})
      want.emplace_back(call);
  EXPECT_EQ(api.log, want);
  EXPECT_EQ(counter(r, "samples"), 3);
  EXPECT_DOUBLE_EQ(counter(r, "build_ms"), 7.5);
  EXPECT_DOUBLE_EQ(counter(r, "first_launch_ms"), 0.48828125);
  EXPECT_DOUBLE_EQ(counter(r, "second_launch_ms"), 0.48828125);
  EXPECT_FALSE(has_counter(r, "context_ms"));  // start_fresh re-created nothing
  EXPECT_EQ(counter(r, "cv"), 0);
  // Iteration time: build + first launch = 7.5 ms + 488.28125 us.
  EXPECT_NEAR(r.GetAdjustedRealTime(), 7500 + 488.28125, 1e-6);
}

TEST(MeasureStartup, ContextTimeIsReportedApart) {
  FakeApi api;
  api.context_ms = 2.0;
  const Prepare prepare = fake_prepare(api);
  const BenchRun r = run_benchmark(
      startup_name(bench("fake", "cuda", "base", "100")), [&](benchmark::State& state) {
        measure_startup(state, api, DeviceInfo{}, BenchName{"w", "fake", "v", {}}, prepare, 2);
      });
  ASSERT_FALSE(is_error(r)) << message(r);
  EXPECT_DOUBLE_EQ(counter(r, "context_ms"), 2.0);
  EXPECT_NEAR(r.GetAdjustedRealTime(), 7500 + 488.28125, 1e-6);  // not counted in
}

TEST(MeasureStartup, ValidationFailureIsAnError) {
  FakeApi api;
  const Prepare prepare = fake_prepare(api, /*valid_calls=*/0);
  const BenchRun r = run_benchmark(
      startup_name(bench("fake", "opencl", "base", "100")), [&](benchmark::State& state) {
        measure_startup(state, api, DeviceInfo{}, BenchName{"w", "fake", "v", {}}, prepare, 3);
      });
  EXPECT_TRUE(is_error(r));
  EXPECT_NE(message(r).find("validation failed after a fresh start"), std::string::npos)
      << message(r);
  EXPECT_EQ(outcome().exit_code(), kExitFailed);
}

}  // namespace
}  // namespace gpucmp
