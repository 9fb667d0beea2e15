// Unit tests of measure() on a fake Runner driven through a real Google
// Benchmark run, and run_guarded(). Expected values are worked out by hand in
// the comments. Launch times are multiples of 1/2048 s, so that sums and means
// of them are exact in binary floating point. measure_startup():
// unit_measure_startup_test.cpp.
//
// Process-wide state: measure() records each run in gpucmp::outcome(), and
// run_guarded() records failures there (exit code 1); outcome() has no reset,
// so after this file's tests it holds their results and failures. No test in
// gpucmp_unit_tests outside this file and unit_measure_startup_test.cpp reads
// outcome() (the others use local Outcome objects), and CTest runs each test
// in its own process.

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "errors.h"
#include "measure.h"
#include "measure_fixtures.h"
#include "measure_run_fixtures.h"
#include "naming.h"
#include "options.h"
#include "outcome.h"
#include "runner.h"
#include "sampling.h"

namespace gpucmp {
namespace {

using test::adaptive;
using test::bench;
using test::BenchRun;
using test::counter;
using test::fake_measurement;
using test::FakeRunner;
using test::has_counter;
using test::is_error;
using test::kLaunchS;
using test::message;
using test::run_benchmark;

// ---- measure() on a fake Runner, through Google Benchmark ----------------------

Protocol fixed_protocol(int samples, CacheMode cache) {
  Protocol p;
  p.sampling.fixed = samples;
  p.cache = cache;
  p.batch_target_ms = 20;
  p.flush_bytes = 8192;
  return p;
}

BenchRun run_measure(FakeRunner& runner, const Measurement& m, const Protocol& p) {
  return run_benchmark(m.name, [&](benchmark::State& state) { measure(state, runner, m, p); });
}

TEST(Measure, ColdFlushesBeforeEverySampleWithBatchOne) {
  std::vector<std::string> log;
  FakeRunner runner(log);
  const Measurement m = fake_measurement(log);
  const BenchRun r = run_measure(runner, m, fixed_protocol(4, CacheMode::cold));
  ASSERT_FALSE(is_error(r)) << message(r);
  // Upload, first launch, validate, probe, then 4 x (flush, one launch),
  // validate again.
  const std::vector<std::string> want = {
      "upload",        "time_batch 1",  "clear_output",  "download",      "validate",
      "time_batch 1",  "flush_l2 8192", "time_batch 1",  "flush_l2 8192", "time_batch 1",
      "flush_l2 8192", "time_batch 1",  "flush_l2 8192", "time_batch 1",  "clear_output",
      "download",      "validate"};
  EXPECT_EQ(log, want);
  EXPECT_EQ(counter(r, "cold"), 1);
  EXPECT_EQ(counter(r, "batch"), 1);
  EXPECT_EQ(counter(r, "samples"), 4);
  EXPECT_FALSE(has_counter(r, "host/device"));  // no batches to cross-check
  EXPECT_FALSE(has_counter(r, "host_device_flag"));
}

TEST(Measure, HotNeverFlushesAndBatchesToTheTarget) {
  std::vector<std::string> log;
  FakeRunner runner(log);
  const Measurement m = fake_measurement(log);
  const BenchRun r = run_measure(runner, m, fixed_protocol(3, CacheMode::hot));
  ASSERT_FALSE(is_error(r)) << message(r);
  // 20 ms / 488.28125 us = 40.96: batches of 40.
  const std::vector<std::string> want = {
      "upload",        "time_batch 1",  "clear_output",  "download",     "validate", "time_batch 1",
      "time_batch 40", "time_batch 40", "time_batch 40", "clear_output", "download", "validate"};
  EXPECT_EQ(log, want);
  EXPECT_EQ(counter(r, "cold"), 0);
  EXPECT_EQ(counter(r, "batch"), 40);
  EXPECT_EQ(counter(r, "samples"), 3);
  EXPECT_EQ(counter(r, "host/device"), 1);
  EXPECT_EQ(counter(r, "host_device_flag"), 0);
}

TEST(Measure, HotBatchIsSizedByTheSlowerHostTime) {
  // Host 1.25 x device: 20 ms / 610.35 us = 32.77 -> 32; ratio 1.25 > 1.02: flagged.
  std::vector<std::string> log;
  FakeRunner runner(log, 1.25);
  const Measurement m = fake_measurement(log);
  const BenchRun r = run_measure(runner, m, fixed_protocol(2, CacheMode::hot));
  ASSERT_FALSE(is_error(r)) << message(r);
  EXPECT_EQ(counter(r, "batch"), 32);
  EXPECT_DOUBLE_EQ(counter(r, "host/device"), 1.25);
  EXPECT_EQ(counter(r, "host_device_flag"), 1);
  // Samples are device time per launch, whatever the host says.
  EXPECT_DOUBLE_EQ(counter(r, "median_us"), kLaunchS * 1e6);
}

TEST(Measure, FixedSamplesCountersAndRates) {
  std::vector<std::string> log;
  FakeRunner runner(log, 1.0, 7.5);
  Measurement m = fake_measurement(log);
  m.peak = 8.192;  // GFLOP/s
  m.items_per_launch = 1024;
  m.time_per_item_counter = "ps_per_item";
  int after = 0;
  m.after_timing = [&after] { ++after; };
  const BenchRun r = run_measure(runner, m, fixed_protocol(5, CacheMode::hot));
  ASSERT_FALSE(is_error(r)) << message(r);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_EQ(counter(r, "samples"), 5);
  EXPECT_FALSE(has_counter(r, "noise_met"));  // fixed count: no noise target
  EXPECT_EQ(counter(r, "cv"), 0);
  EXPECT_DOUBLE_EQ(counter(r, "min_us"), 488.28125);
  EXPECT_DOUBLE_EQ(counter(r, "median_us"), 488.28125);
  EXPECT_DOUBLE_EQ(counter(r, "max_us"), 488.28125);
  EXPECT_DOUBLE_EQ(counter(r, "first_launch_ms"), 0.48828125);
  EXPECT_DOUBLE_EQ(counter(r, "max_rel_err"), 1e-7);
  EXPECT_DOUBLE_EQ(counter(r, "build_ms"), 7.5);
  // 2e6 flop in 1/2048 s = 4.096 GFLOP/s, half of the 8.192 peak.
  EXPECT_NEAR(counter(r, "GFLOP/s"), 4.096, 4.096e-9);
  EXPECT_NEAR(counter(r, "pct_peak"), 50.0, 50e-9);
  EXPECT_FALSE(has_counter(r, "GB/s"));
  // (1/2048 s) / 1024 items = 2^-21 s = 476837.158203125 ps.
  EXPECT_DOUBLE_EQ(counter(r, "ps_per_item"), 476837.158203125);
  // The iteration time is the mean sample, in the benchmark's unit (us).
  EXPECT_NEAR(r.GetAdjustedRealTime(), 488.28125, 1e-6);
  EXPECT_EQ(after, 1);
}

TEST(Measure, NoPeakBuildOrClocksNoCounters) {
  std::vector<std::string> log;
  FakeRunner runner(log);  // build_ms -1: nothing built at run time
  Measurement m = fake_measurement(log);
  m.unit = RateUnit::GBps;
  const BenchRun r = run_measure(runner, m, fixed_protocol(2, CacheMode::hot));
  ASSERT_FALSE(is_error(r)) << message(r);
  EXPECT_TRUE(has_counter(r, "GB/s"));
  EXPECT_FALSE(has_counter(r, "GFLOP/s"));
  for (const char* key : {"pct_peak", "build_ms", "clock_flag", "sm_mhz_before", "sm_mhz_min",
                          "temp_c_before", "power_w_before"})
    EXPECT_FALSE(has_counter(r, key)) << key;
}

TEST(Measure, AdaptiveStopsAtMinSamplesForSteadyTimes) {
  std::vector<std::string> log;
  FakeRunner runner(log);
  const Measurement m = fake_measurement(log);
  Protocol p = fixed_protocol(0, CacheMode::cold);
  p.sampling = adaptive(6, 1000, 0.01, 1000);
  const BenchRun r = run_measure(runner, m, p);
  ASSERT_FALSE(is_error(r)) << message(r);
  EXPECT_EQ(counter(r, "samples"), 6);
  EXPECT_EQ(counter(r, "noise_met"), 1);
  EXPECT_EQ(counter(r, "cv"), 0);
  int flushes = 0;
  for (const auto& call : log) flushes += call == "flush_l2 8192";
  EXPECT_EQ(flushes, 6);
}

TEST(Measure, ValidationFailingAfterTimingIsAnErrorAndAFailure) {
  std::vector<std::string> log;
  FakeRunner runner(log);
  const Measurement m = fake_measurement(log, /*valid_calls=*/1);  // before: ok; after: not
  const std::size_t failures_before = outcome().failures().size();
  const BenchRun r = run_measure(runner, m, fixed_protocol(3, CacheMode::hot));
  EXPECT_TRUE(is_error(r));
  EXPECT_NE(message(r).find("validation failed after timing"), std::string::npos) << message(r);
  EXPECT_NE(message(r).find("c[0,0]: got 1.5, want 1"), std::string::npos) << message(r);
  EXPECT_EQ(log.back(), "validate");  // the samples were taken, then the check failed
  // Process-wide (see the top of this file): the run now exits 1.
  EXPECT_EQ(outcome().exit_code(), kExitFailed);
  ASSERT_EQ(outcome().failures().size(), failures_before + 1);
  EXPECT_NE(outcome().failures().back().find("fake/opencl/base/n:100: validation failed"),
            std::string::npos)
      << outcome().failures().back();
}

TEST(Measure, ValidationFailingBeforeTimingTakesNoSamples) {
  std::vector<std::string> log;
  FakeRunner runner(log);
  const Measurement m = fake_measurement(log, /*valid_calls=*/0);
  const BenchRun r = run_measure(runner, m, fixed_protocol(3, CacheMode::cold));
  EXPECT_TRUE(is_error(r));
  EXPECT_NE(message(r).find("validation failed before timing"), std::string::npos) << message(r);
  const std::vector<std::string> want = {"upload", "time_batch 1", "clear_output", "download",
                                         "validate"};
  EXPECT_EQ(log, want);
  EXPECT_EQ(outcome().exit_code(), kExitFailed);
}

// A row's repetitions with one runner (RowSetup): the first uploads and
// validates before timing; the next take their warm-up launch and samples at
// once; only one asked to check after validates after its samples.
TEST(Measure, ReusedSetupSkipsUploadAndValidatesOnlyWhenAsked) {
  std::vector<std::string> log;
  FakeRunner runner(log);
  const Measurement m = fake_measurement(log);
  RowSetup setup;
  Protocol first = fixed_protocol(1, CacheMode::hot);
  first.check_after = false;
  const auto run = [&](const Protocol& p) {
    return run_benchmark(m.name,
                         [&](benchmark::State& state) { measure(state, runner, m, p, &setup); });
  };
  const BenchRun r1 = run(first);
  const std::vector<std::string> want1 = {"upload",   "time_batch 1", "clear_output", "download",
                                          "validate", "time_batch 1", "time_batch 40"};
  EXPECT_EQ(log, want1);  // before timing only (batches of 40 reach the 20 ms target)
  EXPECT_TRUE(setup.done);
  EXPECT_EQ(counter(r1, "checked_after"), 0);
  EXPECT_EQ(counter(r1, "row_setup_reused"), 0);
  log.clear();
  const BenchRun r2 = run(fixed_protocol(1, CacheMode::hot));  // checks after
  const std::vector<std::string> want2 = {"time_batch 1", "time_batch 40", "clear_output",
                                          "download", "validate"};
  EXPECT_EQ(log, want2);  // no upload, no validation before: reused
  EXPECT_EQ(counter(r2, "row_setup_reused"), 1);
  EXPECT_EQ(counter(r2, "checked_after"), 1);
  EXPECT_DOUBLE_EQ(counter(r2, "first_launch_ms"), counter(r1, "first_launch_ms"));
}

TEST(RunGuarded, UnavailableIsSkippedNotFailed) {
  const std::size_t failures_before = outcome().failures().size();
  const BenchRun r = run_benchmark(bench("fake", "cuda", "base", "1"),
                                   [](benchmark::State&) { throw Unavailable("no CUDA device"); });
  EXPECT_EQ(message(r), "skipped: no CUDA device");
#ifdef GPUCMP_HAVE_SKIP_MESSAGE
  EXPECT_EQ(r.skipped, benchmark::internal::SkippedWithMessage);
#else
  EXPECT_TRUE(r.error_occurred);  // 1.7 has no skip without error
#endif
  EXPECT_EQ(outcome().failures().size(), failures_before);
}

}  // namespace
}  // namespace gpucmp
