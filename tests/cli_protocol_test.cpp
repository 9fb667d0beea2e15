// Whole runs of gpucmp-bench with the measurement-protocol options: --cache
// cold, adaptive sampling (--min-samples, --max-noise, --time-limit), fixed
// --samples, the startup/ rows (--startup, --startup-samples) and progress
// lines (--progress), on the default OpenCL device (PoCL without a GPU). One
// matrixMul size (--mm-n 64) and a tight filter keep each run to a few seconds.
// Bad values of these options: exit code 2 and one line naming the option.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bench_process.h"
#include "naming.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

// A run with stdout (Google Benchmark's report) and stderr (logs, progress)
// kept apart; `report` is stdout parsed as JSON (discarded when not JSON).
struct SplitRun {
  int exit_code = -1;
  std::string out, err;
  json report;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

SplitRun run_split(const std::string& label, const std::string& args) {
  const std::string dir = temp_dir("protocol-" + label);
  const std::string cmd =
      std::string(GPUCMP_BENCH_PATH) + " " + args + " >" + dir + "/stdout 2>" + dir + "/stderr";
  const int status = std::system(cmd.c_str());
  std::string out = read_file(dir + "/stdout");
  json report = json::parse(out, nullptr, /*allow_exceptions=*/false);
  // Built in the return statement, never moved: SplitRun's implicit move
  // constructor would be noexcept around json's, which clang-tidy
  // (bugprone-exception-escape) cannot prove does not throw.
  return SplitRun{WIFEXITED(status) ? WEXITSTATUS(status) : -1, std::move(out),
                  read_file(dir + "/stderr"), std::move(report)};
}

const std::string kQuick = "--size quick --mm-n 64 --benchmark_format=json ";
// The timed tile16 row and its startup row; matches the names with and
// without Google Benchmark's /iterations:1/manual_time suffix alike.
const std::string kBoth =
    "'--benchmark_filter=^matrixMul/opencl/tile16/n:64|^startup/opencl/matrixMul-tile16/n:64' ";

// Cold cache, adaptive sampling stopped by the time limit, startup rows with
// two fresh builds, progress on (the default).
const SplitRun& cold_run() {
  static const SplitRun r = run_split(
      "cold", kQuick + kBoth + "--cache cold --min-samples 3 --time-limit 0.2 --startup-samples 2");
  return r;
}

// Hot cache, a noise target every run meets at once, startup and progress off.
const SplitRun& quiet_run() {
  static const SplitRun r = run_split(
      "quiet", kQuick + kBoth + "--max-noise 100 --min-samples 4 --startup off --progress off");
  return r;
}

// Exactly three samples, hot cache, no startup rows.
const SplitRun& fixed_run() {
  static const SplitRun r =
      run_split("fixed", kQuick + kBoth + "--samples 3 --startup off --progress off");
  return r;
}

std::string context(const SplitRun& r) { return "stderr:\n" + r.err + "\nstdout:\n" + r.out; }

// The report's rows by gpucmp name (without Google Benchmark's suffixes).
std::map<std::string, json> rows(const SplitRun& r) {
  std::map<std::string, json> by_name;
  if (!r.report.is_object() || !r.report.contains("benchmarks")) return by_name;
  for (const auto& b : r.report["benchmarks"]) {
    const auto name = parse_bench_name(b["name"].get<std::string>());
    if (name) by_name[name->str()] = b;
  }
  return by_name;
}

bool failed(const json& row) {
  return row.value("error_occurred", false) || row.value("skipped", false);
}

std::string why(const json& row) {
  return row.value("error_message", "") + row.value("skip_message", "");
}

// Lines of `text` that are progress lines ("gpucmp-bench: [k/N] name, M left, at T s").
std::vector<std::string> progress_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("gpucmp-bench: [", 0) == 0) lines.push_back(line);
  return lines;
}

const char* const kTimed = "matrixMul/opencl/tile16/n:64";
// Cold rows carry the parameter cache:cold (never mixed up with hot rows).
const char* const kCold = "matrixMul/opencl/tile16/n:64/cache:cold";
const char* const kStartup = "startup/opencl/matrixMul-tile16/n:64";

TEST(ProtocolRun, ColdRunExitsZeroWithJsonOnStdout) {
  const SplitRun& r = cold_run();
  EXPECT_EQ(r.exit_code, 0) << context(r);
  ASSERT_TRUE(r.report.is_object()) << "stdout is not JSON\n" << context(r);
  EXPECT_EQ(rows(r).size(), 2u) << context(r);
}

TEST(ProtocolRun, ColdRowsFlushWithBatchOne) {
  const auto all = rows(cold_run());
  EXPECT_FALSE(all.count(kTimed)) << "a cold row under the hot name";
  ASSERT_TRUE(all.count(kCold)) << context(cold_run());
  const json& row = all.at(kCold);
  ASSERT_FALSE(failed(row)) << why(row);
  EXPECT_EQ(row.value("cold", -1.0), 1.0) << row;
  EXPECT_EQ(row.value("batch", -1.0), 1.0) << row;
  EXPECT_GE(row.value("samples", 0.0), 3.0) << row;  // --min-samples 3
  EXPECT_TRUE(row.contains("noise_met")) << row;
  EXPECT_FALSE(row.contains("host/device")) << row;  // cold: no batches to cross-check
  for (const char* key : {"cv", "min_us", "median_us", "max_us", "GFLOP/s", "max_rel_err"})
    EXPECT_TRUE(row.contains(key)) << key << " missing in " << row;
  EXPECT_LE(row.value("min_us", 0.0), row.value("median_us", -1.0)) << row;
  EXPECT_LE(row.value("median_us", 0.0), row.value("max_us", -1.0)) << row;
}

TEST(ProtocolRun, StartupRowHasBuildAndFirstLaunch) {
  const auto all = rows(cold_run());
  ASSERT_TRUE(all.count(kStartup)) << context(cold_run());
  const json& row = all.at(kStartup);
  ASSERT_FALSE(failed(row)) << why(row);
  EXPECT_GT(row.value("build_ms", 0.0), 0.0) << row;
  EXPECT_GT(row.value("first_launch_ms", 0.0), 0.0) << row;
  EXPECT_GT(row.value("second_launch_ms", 0.0), 0.0) << row;
  EXPECT_EQ(row.value("samples", 0.0), 2.0) << row;  // --startup-samples 2
  EXPECT_FALSE(row.contains("cold")) << row;         // not a timed-kernel row
}

TEST(ProtocolRun, ProgressLinesOnStderrOnly) {
  const SplitRun& r = cold_run();
  const auto lines = progress_lines(r.err);
  ASSERT_EQ(lines.size(), 2u) << context(r);
  EXPECT_NE(lines[0].find("[1/2] "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(", 1 left"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("[2/2] "), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find(", 0 left"), std::string::npos) << lines[1];
  EXPECT_EQ(r.out.find("gpucmp-bench: ["), std::string::npos) << context(r);
  // (the context's PTX pass descriptions may say "left" themselves)
  EXPECT_EQ(r.out.find(", 1 left"), std::string::npos) << context(r);
  EXPECT_EQ(r.out.find(", 0 left"), std::string::npos) << context(r);
}

TEST(ProtocolRun, StartupOffAndProgressOff) {
  const SplitRun& r = quiet_run();
  EXPECT_EQ(r.exit_code, 0) << context(r);
  const auto all = rows(r);
  EXPECT_TRUE(all.count(kTimed)) << context(r);
  for (const auto& [name, row] : all)
    EXPECT_NE(name.rfind("startup/", 0), 0u) << "startup row with --startup off: " << name;
  EXPECT_TRUE(progress_lines(r.err).empty()) << context(r);
  EXPECT_EQ(r.err.find(" left"), std::string::npos) << context(r);
}

TEST(ProtocolRun, MetNoiseTargetStopsAtMinSamples) {
  const SplitRun& r = quiet_run();
  const auto all = rows(r);
  ASSERT_TRUE(all.count(kTimed)) << context(r);
  const json& row = all.at(kTimed);
  ASSERT_FALSE(failed(row)) << why(row);
  EXPECT_EQ(row.value("noise_met", -1.0), 1.0) << row;
  EXPECT_EQ(row.value("samples", 0.0), 4.0) << row;  // --min-samples 4
  EXPECT_EQ(row.value("cold", -1.0), 0.0) << row;
  EXPECT_GE(row.value("batch", 0.0), 1.0) << row;
  EXPECT_TRUE(row.contains("host/device")) << row;
  EXPECT_EQ(r.err.find("--max-noise target"), std::string::npos) << context(r);
}

TEST(ProtocolRun, FixedSamplesTakesExactlyThatMany) {
  const SplitRun& r = fixed_run();
  EXPECT_EQ(r.exit_code, 0) << context(r);
  const auto all = rows(r);
  ASSERT_TRUE(all.count(kTimed)) << context(r);
  const json& row = all.at(kTimed);
  ASSERT_FALSE(failed(row)) << why(row);
  EXPECT_EQ(row.value("samples", 0.0), 3.0) << row;
  EXPECT_FALSE(row.contains("noise_met")) << row;  // no noise target with --samples
}

// --launch-gaps: each launch's own time and the time between launches, per
// launch; they add up to the batch's device time. Without it: neither.
TEST(ProtocolRun, LaunchGapsSplitTheBatchTime) {
  const SplitRun r = run_split("gaps", kQuick + kBoth + "--samples 3 --startup off --launch-gaps");
  EXPECT_EQ(r.exit_code, 0) << context(r);
  const auto all = rows(r);
  const std::string timed = std::string(kTimed) + "/gaps:timed";  // never mixed with plain rows
  ASSERT_TRUE(all.count(timed)) << context(r);
  const json& row = all.at(timed);
  ASSERT_FALSE(failed(row)) << why(row);
  const double launch = row.value("launch_us", -1.0), gap = row.value("launch_gap_us", -1e9);
  EXPECT_GT(launch, 0.0) << row;
  EXPECT_GE(gap, -1e-3 * launch) << row;  // launches of one queue do not overlap
  // launch + gap is the mean device time per launch (the samples' mean).
  const std::string unit = row.value("time_unit", "");
  const double scale = unit == "ns" ? 1e-3 : unit == "ms" ? 1e3 : unit == "s" ? 1e6 : 1.0;
  const double mean_us = row.value("real_time", 0.0) * scale;
  EXPECT_NEAR(launch + gap, mean_us, 0.01 * mean_us) << row;
  const json& plain = fixed_run().report.is_object() ? rows(fixed_run()).at(kTimed) : json();
  EXPECT_FALSE(plain.contains("launch_us"));
  EXPECT_FALSE(plain.contains("launch_gap_us"));
}

// The progress total counts what Google Benchmark runs: its filter sees the
// registered name with /iterations:1/manual_time appended, so a filter that
// ends in '/' (or '$') selects differently from the bare gpucmp name.
TEST(ProtocolRun, ProgressTotalMatchesTheRowsRun) {
  const SplitRun r = run_split(
      "progress",
      kQuick + "--samples 2 --startup off '--benchmark_filter=matrixMul/opencl/tile16/n:64/'");
  EXPECT_EQ(r.exit_code, 0) << context(r);
  ASSERT_EQ(rows(r).size(), 1u) << context(r);
  const auto lines = progress_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << context(r);
  EXPECT_TRUE(std::regex_match(
      lines[0],
      std::regex(R"(gpucmp-bench: \[1/1\] matrixMul/opencl/tile16/n:64, 0 left, at \d+\.\d s)")))
      << lines[0];
}

// Repetitions of one row run back to back: the first makes, uploads and
// validates; the next reuse that runner (row_setup_reused 1, no prepare, the
// first's first launch), and the last validates after its samples. Two rows
// interleaved: reused only where a row follows itself, each validating.
TEST(ProtocolRun, RepetitionsReuseTheRowsSetup) {
  const std::string two =
      "'--benchmark_filter=^matrixMul/opencl/(tile16|tile32)/n:64/' --samples 2 --startup off "
      "--progress off --benchmark_repetitions=3 ";
  for (const bool interleaved : {false, true}) {
    const SplitRun r = run_split(
        "reps", kQuick + two + (interleaved ? "--benchmark_enable_random_interleaving=true" : ""));
    ASSERT_EQ(r.exit_code, 0) << context(r);
    std::map<std::string, std::vector<json>> reps;
    for (const auto& b : r.report["benchmarks"])
      if (b.value("run_type", "") == "iteration")
        reps[parse_bench_name(b["name"].get<std::string>())->str()].push_back(b);
    ASSERT_EQ(reps.size(), 2u) << context(r);
    int reused = 0;
    for (const auto& [name, runs] : reps) {
      ASSERT_EQ(runs.size(), 3u) << name;
      for (const json& b : runs) {
        ASSERT_FALSE(failed(b)) << why(b);
        EXPECT_LE(b.value("max_rel_err", 1.0), 1e-4) << name;  // validated after its samples
        if (b.value("row_setup_reused", -1.0) == 1) {
          ++reused;
          EXPECT_EQ(b.value("row_prepare_ms", -1.0), 0.0) << b;
          // The first launch of the repetition whose runner it reused (interleaved:
          // maybe not the row's first).
          const bool same_first = std::any_of(runs.begin(), runs.end(), [&](const json& o) {
            return &o != &b && o.value("row_setup_reused", -1.0) == 0 &&
                   o.value("first_launch_ms", -1.0) == b.value("first_launch_ms", -2.0);
          });
          EXPECT_TRUE(same_first) << b;
          if (!interleaved) {
            EXPECT_EQ(b.value("first_launch_ms", -1.0), runs[0].value("first_launch_ms", -2.0));
          }
        } else {
          EXPECT_EQ(b.value("row_setup_reused", -1.0), 0.0) << b;
        }
      }
      EXPECT_EQ(runs[0].value("row_setup_reused", -1.0), 0.0) << name;
      // Back to back, only the last validates after its samples (the runner
      // the others leave to it); interleaved, each does.
      for (std::size_t i = 0; i < runs.size(); ++i)
        EXPECT_EQ(runs[i].value("checked_after", -1.0), interleaved || i == 2 ? 1.0 : 0.0)
            << name << " repetition " << i;
    }
    if (interleaved) {
      EXPECT_LE(reused, 4) << context(r);  // a repetition follows its own row by chance
    } else {
      EXPECT_EQ(reused, 4) << context(r);  // the 2nd and 3rd of each
    }
  }
}

// ---- bad values: exit code 2, one line naming the option, nothing run ----

void expect_bad_value(const std::string& option, const std::string& value) {
  const SplitRun r = run_split("bad", kQuick + kBoth + option + " " + value);
  EXPECT_EQ(r.exit_code, 2) << option << " " << value << "\n" << context(r);
  EXPECT_EQ(r.err.rfind("gpucmp-bench: error: " + option, 0), 0u) << context(r);
  EXPECT_NE(r.err.find(value), std::string::npos) << context(r);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "not one line\n" << context(r);
  EXPECT_TRUE(r.out.empty()) << context(r);
}

TEST(ProtocolBadValue, CacheWarm) { expect_bad_value("--cache", "warm"); }
TEST(ProtocolBadValue, MaxNoiseZero) { expect_bad_value("--max-noise", "0"); }
TEST(ProtocolBadValue, SamplesZero) { expect_bad_value("--samples", "0"); }
TEST(ProtocolBadValue, MinSamplesOne) { expect_bad_value("--min-samples", "1"); }
TEST(ProtocolBadValue, TimeLimitNegative) { expect_bad_value("--time-limit", "-1"); }
TEST(ProtocolBadValue, StartupMaybe) { expect_bad_value("--startup", "maybe"); }
TEST(ProtocolBadValue, StartupSamplesZero) { expect_bad_value("--startup-samples", "0"); }
TEST(ProtocolBadValue, ProgressYes) { expect_bad_value("--progress", "yes"); }

}  // namespace
}  // namespace gpucmp::test
