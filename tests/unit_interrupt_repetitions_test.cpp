// A signal between repetitions of one benchmark: the repetition abandoned
// before its iteration started must still report the one iteration its
// finished siblings report, or Google Benchmark's ComputeStats aborts the
// process (BM_CHECK on equal iterations) and no report is written at all.
// Seen on the H200 (2026-11-23): `timeout` stopped a run with
// --benchmark_repetitions=3 and its JSON was empty.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

#include "interrupt.h"
#include "measure.h"
#include "naming.h"

namespace gpucmp {
namespace {

// Keeps every run and aggregate Google Benchmark reports.
class Collect : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) reported.push_back(r);
  }
  std::vector<Run> reported;
};

TEST(InterruptRepetitions, AnAbandonedRepetitionDoesNotAbortTheReport) {
  const BenchName name{"fake", "opencl", "base", {}};
  int calls = 0;
  benchmark::RegisterBenchmark("gpucmp_fake_repetitions",
                               [&](benchmark::State& state) {
                                 run_guarded(state, name, [&] {
                                   ++calls;
                                   for (auto _ : state) state.SetIterationTime(1e-3);
                                   // The signal arrives after the first repetition.
                                   interrupt::simulate(SIGTERM);
                                 });
                               })
      ->UseManualTime()
      ->Iterations(1)
      ->Repetitions(3);
  Collect reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter, "gpucmp_fake_repetitions");
  benchmark::ClearRegisteredBenchmarks();
  interrupt::simulate(0);

  EXPECT_EQ(calls, 1) << "repetitions after the signal do not run their body";
  int runs = 0;
  for (const auto& r : reporter.reported)
    if (r.run_type == benchmark::BenchmarkReporter::Run::RT_Iteration) {
      ++runs;
      EXPECT_EQ(r.iterations, 1) << "repetition " << r.repetition_index;
    }
  EXPECT_EQ(runs, 3);
}

}  // namespace
}  // namespace gpucmp
