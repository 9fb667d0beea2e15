// Unit tests of when sampling stops (take_samples, relative_stddev), the
// progress helpers (count_selected, benchmark_flag, progress lines), the
// cold-mode flush size and startup names. Expected values are worked out by
// hand in the comments.
//
// Process-wide state: the progress plan (progress_plan); the tests that set
// it disable it again.

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "api.h"
#include "errors.h"
#include "measure.h"
#include "measure_fixtures.h"
#include "naming.h"
#include "options.h"
#include "outcome.h"
#include "progress.h"
#include "runner.h"
#include "sampling.h"
#include "startup.h"

namespace gpucmp {
namespace {

// ---- take_samples() -----------------------------------------------------------

// A take() that returns `values` in turn (the last one repeated) and counts calls.
struct Sequence {
  std::vector<double> values;
  int calls = 0;
  double operator()() {
    const double v = values[std::min<std::size_t>(std::size_t(calls), values.size() - 1)];
    ++calls;
    return v;
  }
};

// 1, 3, 1, 3, ...: mean 2, stddev about 1, relative stddev about 50%.
std::function<double()> alternating(int& calls) {
  return [&calls] { return ++calls % 2 ? 1.0 : 3.0; };
}

using test::adaptive;
using test::bench;

TEST(TakeSamples, FixedCountTakesExactlyThatMany) {
  SamplingRule r;
  r.fixed = 7;  // fewer than min_samples (10): fixed wins
  Sequence seq{{2.0}};
  const Samples s = take_samples(r, std::ref(seq));
  EXPECT_EQ(seq.calls, 7);
  EXPECT_EQ(s.values, std::vector<double>(7, 2.0));
  EXPECT_FALSE(s.noise_met);  // a fixed count reaches no noise target
  EXPECT_GE(s.elapsed_s, 0.0);
}

TEST(TakeSamples, FixedCountIgnoresMaxSamplesAndNoise) {
  SamplingRule r = adaptive(2, 5, 0.01, 1000);
  r.fixed = 20;
  int calls = 0;
  const Samples s = take_samples(r, alternating(calls));
  EXPECT_EQ(calls, 20);
  EXPECT_EQ(s.values.size(), 20u);
  EXPECT_FALSE(s.noise_met);
}

TEST(TakeSamples, ValuesAreKeptInOrder) {
  SamplingRule r;
  r.fixed = 4;
  Sequence seq{{4, 1, 3, 2}};
  EXPECT_EQ(take_samples(r, std::ref(seq)).values, (std::vector<double>{4, 1, 3, 2}));
}

TEST(TakeSamples, MinSamplesRespectedWhenNoiseIsMetEarlier) {
  // Constant values: the relative stddev is 0 from the second sample on.
  Sequence seq{{5e-3}};
  const Samples s = take_samples(adaptive(6, 100, 0.01, 1000), std::ref(seq));
  EXPECT_EQ(seq.calls, 6);
  EXPECT_EQ(s.values.size(), 6u);
  EXPECT_TRUE(s.noise_met);
}

TEST(TakeSamples, StopsAsSoonAsNoiseTargetIsMetAfterMin) {
  // 1, 2, then 1.5 for ever: the mean stays 1.5 and the squared deviations sum
  // to 0.25 + 0.25 = 0.5, so after n samples the relative stddev is
  // sqrt(0.5 / (n - 1)) / 1.5 <= 0.2  <=>  n - 1 >= 0.5 / 0.09 = 5.56  <=>  n >= 7.
  Sequence seq{{1.0, 2.0, 1.5}};
  const Samples s = take_samples(adaptive(2, 100, 0.2, 1000), std::ref(seq));
  EXPECT_EQ(seq.calls, 7);
  ASSERT_EQ(s.values.size(), 7u);
  EXPECT_TRUE(s.noise_met);
  EXPECT_LE(relative_stddev(s.values), 0.2);
  EXPECT_GT(relative_stddev({s.values.begin(), s.values.end() - 1}), 0.2);  // 6: 0.211
}

TEST(TakeSamples, NoisyValuesStopAtMaxSamples) {
  int calls = 0;
  const Samples s = take_samples(adaptive(3, 25, 0.01, 1000), alternating(calls));
  EXPECT_EQ(calls, 25);
  EXPECT_EQ(s.values.size(), 25u);
  EXPECT_FALSE(s.noise_met);
}

TEST(TakeSamples, MinSamplesWinsOverASmallerMaxSamples) {
  // "never before min_samples" (options.h), even when max_samples is lower.
  int calls = 0;
  const Samples s = take_samples(adaptive(5, 3, 0.01, 1000), alternating(calls));
  EXPECT_EQ(calls, 5);
  EXPECT_FALSE(s.noise_met);
}

TEST(TakeSamples, TimeLimitStopsRightAfterMinSamples) {
  // Each sample takes >= 2 ms; the limit (1 ms) has passed once min_samples
  // (3) are taken, and not before them: exactly 3 samples.
  int calls = 0;
  const Samples s = take_samples(adaptive(3, 1000, 0.01, 0.001), [&calls] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return ++calls % 2 ? 1.0 : 3.0;
  });
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(s.values.size(), 3u);
  EXPECT_FALSE(s.noise_met);
  EXPECT_GE(s.elapsed_s, 0.006);
}

TEST(TakeSamples, ZeroValuesNeverMeetTheNoiseTarget) {
  // The test divides by the mean: all-zero samples (a timer too coarse for the
  // kernel) never count as quiet, and sampling runs to max_samples.
  Sequence seq{{0.0}};
  const Samples s = take_samples(adaptive(2, 4, 0.01, 1000), std::ref(seq));
  EXPECT_EQ(seq.calls, 4);
  EXPECT_FALSE(s.noise_met);
}

TEST(RelativeStddev, KnownValues) {
  // {1, 3}: mean 2, sample stddev sqrt(2); fewer than 2 values or mean 0: 0.
  EXPECT_DOUBLE_EQ(relative_stddev({1, 3}), std::sqrt(2.0) / 2);
  EXPECT_EQ(relative_stddev({5}), 0.0);
  EXPECT_EQ(relative_stddev({}), 0.0);
  EXPECT_EQ(relative_stddev({0, 0, 0}), 0.0);
}

// ---- count_selected(), benchmark_flag(), progress lines -------------------------

const std::vector<std::string> kNames = {
    "matrixMul/opencl/tile16/n:64",          // 0
    "matrixMul/cuda/tile16/n:64",            // 1
    "bandwidth/opencl/d2d/bytes:4096",       // 2
    "startup/opencl/matrixMul-tile16/n:64",  // 3
};

TEST(CountSelected, PlainRegexIsSearched) {
  EXPECT_EQ(count_selected(kNames, "opencl"), 3);        // 0, 2, 3
  EXPECT_EQ(count_selected(kNames, "^matrixMul/"), 2);   // 0, 1
  EXPECT_EQ(count_selected(kNames, "tile16/n:64$"), 3);  // 0, 1, 3
  EXPECT_EQ(count_selected(kNames, "d2d|cuda"), 2);      // extended: alternation
  EXPECT_EQ(count_selected(kNames, "nothing-like-it"), 0);
}

TEST(CountSelected, LeadingMinusNegates) {
  EXPECT_EQ(count_selected(kNames, "-opencl"), 1);     // 1
  EXPECT_EQ(count_selected(kNames, "-^startup/"), 3);  // 0, 1, 2
  EXPECT_EQ(count_selected(kNames, "-nothing-like-it"), 4);
}

TEST(CountSelected, EmptyAndAllSelectEverything) {
  EXPECT_EQ(count_selected(kNames, ""), 4);
  EXPECT_EQ(count_selected(kNames, "all"), 4);
  EXPECT_EQ(count_selected({}, "all"), 0);
}

// std::regex backtracks exponentially on "(.*)*q" over a name it does not
// match; POSIX regexec (Google Benchmark's engine here) does not.
TEST(CountSelected, NestedQuantifiersTakeLinearTime) {
  const std::vector<std::string> names(200, std::string(100, 'a') + "/cuda/n:64");
  EXPECT_EQ(count_selected(names, "(.*)*q"), 0);
  EXPECT_EQ(count_selected(names, "((a*)*)*/cuda"), 200);
  EXPECT_EQ(count_selected(kNames, "(.*)*x"), 3);  // matrixMul: 0, 1, 3
}

TEST(CountSelected, InvalidRegexGivesMinusOne) {
  EXPECT_EQ(count_selected(kNames, "("), -1);
  EXPECT_EQ(count_selected(kNames, "[a-"), -1);
  EXPECT_EQ(count_selected(kNames, "-("), -1);
}

TEST(BenchmarkFlag, LastOneWins) {
  const char* args[] = {"gpucmp-bench", "--benchmark_filter=a", "--size",
                        "quick",        "--benchmark_filter=b", "--benchmark_repetitions=3"};
  char** argv = const_cast<char**>(args);
  EXPECT_EQ(benchmark_flag(6, argv, "benchmark_filter"), "b");
  EXPECT_EQ(benchmark_flag(6, argv, "benchmark_repetitions"), "3");
  EXPECT_EQ(benchmark_flag(4, argv, "benchmark_filter"), "a");  // only argv[0..3]
}

TEST(BenchmarkFlag, AbsentOrOtherSpellingsGiveEmpty) {
  const char* args[] = {"--benchmark_filter=not-argv0", "--benchmark_filter", "x",
                        "--benchmark_filterx=y", "-benchmark_filter=z"};
  char** argv = const_cast<char**>(args);
  EXPECT_EQ(benchmark_flag(5, argv, "benchmark_filter"), "");
  EXPECT_EQ(benchmark_flag(5, argv, "benchmark_repetitions"), "");
  EXPECT_EQ(benchmark_flag(1, argv, "benchmark_filter"), "");
}

TEST(BenchmarkFlag, EmptyValueIsKept) {
  const char* args[] = {"gpucmp-bench", "--benchmark_filter=a", "--benchmark_filter="};
  EXPECT_EQ(benchmark_flag(3, const_cast<char**>(args), "benchmark_filter"), "");
}

// The progress lines one plan and `steps` runs print on stderr, each line's
// seconds since the plan (", at 0.0 s") written ", at T s".
std::string progress_lines(bool enabled, const std::string& filter, int repetitions, int steps) {
  testing::internal::CaptureStderr();
  progress_plan(enabled, kNames, filter, repetitions);
  for (int i = 0; i < steps; ++i) progress_step(bench("matrixMul", "opencl", "tile16", "64"));
  progress_plan(false, {}, "", 1);  // process-wide: off again
  return std::regex_replace(testing::internal::GetCapturedStderr(),
                            std::regex(", at [0-9]+\\.[0-9] s\n"), ", at T s\n");
}

TEST(Progress, CountsSelectedTimesRepetitions) {
  // "opencl" selects 3 names, 2 repetitions: 6 runs.
  EXPECT_EQ(progress_lines(true, "opencl", 2, 2),
            "gpucmp-bench: [1/6] matrixMul/opencl/tile16/n:64, 5 left, at T s\n"
            "gpucmp-bench: [2/6] matrixMul/opencl/tile16/n:64, 4 left, at T s\n");
}

TEST(Progress, UnknownTotalPrintsOnlyTheCount) {
  // An invalid regex, and more runs than planned: no total, no "left".
  EXPECT_EQ(progress_lines(true, "(", 1, 1),
            "gpucmp-bench: [1] matrixMul/opencl/tile16/n:64, at T s\n");
  EXPECT_EQ(progress_lines(true, "-opencl", 1, 2),
            "gpucmp-bench: [1/1] matrixMul/opencl/tile16/n:64, 0 left, at T s\n"
            "gpucmp-bench: [2] matrixMul/opencl/tile16/n:64, at T s\n");
}

TEST(Progress, DisabledPrintsNothing) { EXPECT_EQ(progress_lines(false, "all", 1, 3), ""); }

// ---- flush_bytes_for(), startup_name() -----------------------------------------

TEST(FlushBytesFor, TwiceTheL2InWholePages) {
  EXPECT_EQ(flush_bytes_for(50LL << 20), std::size_t(100) << 20);  // H100: 50 MiB L2
  EXPECT_EQ(flush_bytes_for(4096), 8192u);
  EXPECT_EQ(flush_bytes_for(4097), 12288u);  // 8194 -> 3 pages
  EXPECT_EQ(flush_bytes_for(1000), 4096u);   // 2000 -> 1 page
  EXPECT_EQ(flush_bytes_for(1), 4096u);
}

TEST(FlushBytesFor, UnknownL2Gives64MiB) {
  EXPECT_EQ(flush_bytes_for(0), std::size_t(64) << 20);
  EXPECT_EQ(flush_bytes_for(-1), std::size_t(64) << 20);
}

TEST(StartupName, PrefixesStartupAndJoinsWorkloadAndVariant) {
  const BenchName s = startup_name(bench("matrixMul", "opencl", "tile16", "256"));
  EXPECT_EQ(s.str(), "startup/opencl/matrixMul-tile16/n:256");
  EXPECT_EQ(s.workload, "startup");
  EXPECT_EQ(s.api, "opencl");
  EXPECT_EQ(s.variant, "matrixMul-tile16");
  ASSERT_EQ(s.params.size(), 1u);
  EXPECT_EQ(s.params[0].name, "n");
  EXPECT_EQ(s.params[0].value, "256");
  // Parses back as a name of its own.
  const auto parsed = parse_bench_name(s.str() + "/iterations:1/manual_time");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->str(), s.str());
}

}  // namespace
}  // namespace gpucmp
