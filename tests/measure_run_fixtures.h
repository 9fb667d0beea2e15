// What unit_measure_test.cpp and unit_measure_startup_test.cpp both use to
// drive measure() and measure_startup() through a real Google Benchmark run:
//
//   kLaunchS                        the device time of one fake launch, 1/2048 s
//   FakeRunner                      a Runner that logs every call and takes kLaunchS a launch
//   fake_measurement(log, valid)    a Measurement (2e6 flop a launch) that validates `valid` times
//   run_benchmark(name, body)       runs `body` as the only benchmark; returns its one run
//   is_error(run), message(run)     whether the run ended in an error, and its message
//   counter(run, key), has_counter  a user counter of the run (failing the test when absent)
#pragma once
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "measure.h"
#include "measure_fixtures.h"
#include "naming.h"
#include "runner.h"

namespace gpucmp::test {

inline constexpr double kLaunchS = 1.0 / 2048;  // 488.28125 us

// Records every call in `log`; each launch takes kLaunchS of device time and
// host_ratio times that of host time.
class FakeRunner : public Runner {
 public:
  FakeRunner(std::vector<std::string>& log, double host_ratio = 1.0, double build_ms = -1)
      : log_(log), host_ratio_(host_ratio), build_ms_(build_ms) {}
  void upload() override { log_.emplace_back("upload"); }
  BatchTiming time_batch(int launches) override {
    log_.push_back("time_batch " + std::to_string(launches));
    BatchTiming t;
    t.device_s = launches * kLaunchS;
    t.host_s = t.device_s * host_ratio_;
    t.launches = launches;
    return t;
  }
  void download() override { log_.emplace_back("download"); }
  void flush_l2(std::size_t bytes) override { log_.push_back("flush_l2 " + std::to_string(bytes)); }
  double build_ms() const override { return build_ms_; }

 private:
  std::vector<std::string>& log_;
  double host_ratio_;
  double build_ms_;
};

// 2e6 flop per launch (matrixMul n = 100); validates `valid_calls` times, then fails.
inline Measurement fake_measurement(std::vector<std::string>& log, int valid_calls = 1000) {
  Measurement m;
  m.name = bench("fake", "opencl", "base", "100");
  m.unit = RateUnit::GFLOPs;
  m.work_per_launch = 2e6;
  m.clear_output = [&log] { log.emplace_back("clear_output"); };
  auto calls = std::make_shared<int>(0);
  m.validate = [&log, calls, valid_calls] {
    log.emplace_back("validate");
    Validation v;
    v.max_rel_err = 1e-7;
    v.tolerance = 1e-5;
    v.checked = 16;
    v.ok = (*calls)++ < valid_calls;
    if (!v.ok) {
      v.max_rel_err = 0.5;
      v.where = "c[0,0]: got 1.5, want 1";
    }
    return v;
  };
  return m;
}

using BenchRun = benchmark::BenchmarkReporter::Run;

class CapturingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) this->runs.push_back(r);
  }
  std::vector<Run> runs;
};

inline bool is_error(const BenchRun& r) {
#ifdef GPUCMP_HAVE_SKIP_MESSAGE
  return r.skipped == benchmark::internal::SkippedWithError;
#else
  return r.error_occurred;
#endif
}

inline std::string message(const BenchRun& r) {
#ifdef GPUCMP_HAVE_SKIP_MESSAGE
  return r.skip_message;
#else
  return r.error_message;
#endif
}

// Registers `body` as the only benchmark, the way workload.cpp does (manual
// time, one iteration, run_guarded around the body), runs it and returns its
// one run.
inline BenchRun run_benchmark(const BenchName& name,
                              const std::function<void(benchmark::State&)>& body) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(
      name.str().c_str(),
      [name, body](benchmark::State& state) { run_guarded(state, name, [&] { body(state); }); })
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMicrosecond);
  CapturingReporter reporter;
  testing::internal::CaptureStderr();  // warnings and error lines: not this test's output
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter, ".");
  testing::internal::GetCapturedStderr();
  benchmark::ClearRegisteredBenchmarks();
  EXPECT_EQ(ran, 1u);
  EXPECT_EQ(reporter.runs.size(), 1u);
  return reporter.runs.empty() ? BenchRun() : reporter.runs.front();
}

inline double counter(const BenchRun& r, const std::string& key) {
  const auto it = r.counters.find(key);
  EXPECT_NE(it, r.counters.end()) << "no counter " << key;
  return it == r.counters.end() ? -1 : double(it->second);
}

inline bool has_counter(const BenchRun& r, const std::string& key) {
  return r.counters.count(key) > 0;
}

}  // namespace gpucmp::test
