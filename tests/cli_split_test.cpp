// Split rows through gpucmp-bench on OpenCL: bad --split
// options are one-line usage errors (exit 2, no output file); every split of
// mmnaive, bilinear and trapezoid runs validated on the default device named
// twice (PoCL without a GPU), along y and along x; with one device the rows
// are skipped, not errors. Each whole run is one TEST (CTest runs every TEST
// in its own process, so a static cache would not be shared between them).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

// --list-devices shows OpenCL platform 0 with a device 0 (PoCL on CI).
bool opencl_device_present() {
  static const bool present = [] {
    const std::string out = run_bench("--list-devices").output;
    const auto platform = out.find("OpenCL platform 0:");
    return platform != std::string::npos &&
           out.find("\n  device 0:", platform) < out.find("OpenCL platform 1:");
  }();
  return present;
}

// ---- bad input: exit 2, one line naming the problem, no output file ----

void expect_usage_error(const std::string& args, const std::string& needle) {
  const std::string dir = temp_dir("split-bad-input");
  const std::string out = dir + "/out.json";
  expect_one_error_line(run_bench(args +
                                  " --benchmark_filter='^mmnaive/opencl/.*/split' --size quick "
                                  "--samples 1 --benchmark_out=" +
                                  out),
                        needle, args);
  expect_no_file(out);
}

TEST(SplitBadInput, UnknownSplit) {
  expect_usage_error("--split foo",
                     "--split foo: not a split (equal, pe, study-k, calibrated, share:F with F in "
                     "0..1, sweep)");
}

TEST(SplitBadInput, ShareAboveOne) {
  expect_usage_error("--split share:2", "--split share:2: the share must be a number in 0..1");
}

TEST(SplitBadInput, AxisNotXOrY) {
  expect_usage_error("--split-axis z", "--split-axis z: must be x or y");
}

TEST(SplitBadInput, ZeroLaunches) {
  expect_usage_error("--split-launches 0", "--split-launches 0: must be in 1..");
}

// The devices are looked up only when there are split rows (with --split);
// each case needs a platform 0 with fewer than 10 devices.
TEST(SplitBadInput, NoSuchPlatform) {
  if (!opencl_device_present()) GTEST_SKIP() << "no OpenCL device here";
  expect_usage_error("--split equal --cl-split-devices 9:0",
                     "--cl-split-devices 9:0: no such OpenCL platform");
}

TEST(SplitBadInput, NoSuchDevice) {
  if (!opencl_device_present()) GTEST_SKIP() << "no OpenCL device here";
  expect_usage_error("--split equal --cl-split-devices 0:9",
                     "--cl-split-devices 0:9: no such device on platform 0");
}

TEST(SplitBadInput, NotPlatformColonDevice) {
  expect_usage_error("--split equal --cl-split-devices abc",
                     "--cl-split-devices abc: not PLATFORM:DEVICE");
}

// ---- whole runs on the default OpenCL device named twice ----

// The splittable kernels' rows at --size quick with their default shapes:
// the name up to local:, the units along each axis and the granule (the
// work-group extent along the split), and whether the kernel is 1-D (always
// cut along x).
struct Kernel {
  std::string prefix;
  double granule_share;  // one granule as a share of the units
  bool one_d;
};
const std::vector<Kernel>& kernels() {
  static const std::vector<Kernel> k{
      {"mmnaive/opencl/base/n:256/local:16x16", 16.0 / 256, false},
      {"bilinear/opencl/base/in:128/out:256/local:16x16", 16.0 / 256, false},
      {"trapezoid/opencl/base/items:16384/local:256", 256.0 / 16384, true},
  };
  return k;
}
const std::vector<std::string> kSpecs{"equal",   "pe",        "calibrated",
                                      "share:0", "share:0.3", "share:1"};

struct SplitRun {
  ProcessResult process;
  json report;
};

SplitRun run_split(const std::string& args) {
  const std::string out = temp_dir("split-run") + "/out.json";
  ProcessResult process = run_bench(
      "--benchmark_filter='^(mmnaive|bilinear|trapezoid)/opencl/.*/split' --size quick "
      "--split-launches 2 --samples 2 --benchmark_out=" +
      out + " " + args);
  json report;
  std::ifstream in(out);
  if (in) report = json::parse(in, nullptr, false);
  return SplitRun{std::move(process), std::move(report)};
}

// A row's name without Google Benchmark's "/iterations:N/manual_time".
std::string row_name(const json& row) {
  const std::string name = row.value("name", "");
  return name.substr(0, name.find("/iterations:"));
}

double counter(const json& row, const std::string& key) {
  EXPECT_TRUE(row.contains(key)) << row_name(row) << ": no " << key;
  return row.value(key, NAN);
}

// Checks one row of kernel `k` under split `spec`.
void check_row(const json& row, const Kernel& k, const std::string& spec) {
  const std::string name = row_name(row);
  SCOPED_TRACE(name);
  EXPECT_FALSE(row.value("error_occurred", false)) << row.value("error_message", "");
  EXPECT_FALSE(row.value("skipped", false));
  EXPECT_EQ(counter(row, "devices"), 2.0);
  EXPECT_EQ(counter(row, "launches_per_job"), 2.0);
  const double err = counter(row, "max_rel_err");
  EXPECT_TRUE(err >= 0 && err < 1e-4) << "max_rel_err " << err;
  const double s0 = counter(row, "share_0"), s1 = counter(row, "share_1");
  EXPECT_DOUBLE_EQ(s0 + s1, 1.0);
  EXPECT_FALSE(row.contains("share_2"));
  // Whole granules: share_0 is a multiple of one granule's share.
  EXPECT_DOUBLE_EQ(s0 / k.granule_share, std::round(s0 / k.granule_share)) << "share_0 " << s0;
  // The share each spec names: equal and pe halve (one device named twice).
  const double named = spec == "share:0" ? 0.0 : spec == "share:1" ? 1.0 : 0.5;
  if (spec == "share:0.3") {
    EXPECT_LE(std::abs(s0 - 0.3), k.granule_share) << "share_0 " << s0;
  } else if (spec != "calibrated") {
    EXPECT_EQ(s0, named);
  }
  const bool calibrated = spec == "calibrated";
  for (const char* probe : {"probe_launches", "probe_fixed_ms_0", "probe_fixed_ms_1",
                            "probe_all_ms_0", "probe_all_ms_1"})
    EXPECT_EQ(row.contains(probe), calibrated) << probe;
  if (calibrated) {
    EXPECT_EQ(row.value("probe_launches", 0.0), 1.0) << "max(1, 2 launches / 10)";
    for (const char* d : {"0", "1"}) {  // a whole job costs more than its fixed part
      EXPECT_GE(row.value(std::string("probe_fixed_ms_") + d, -1.0), 0.0);
      EXPECT_GT(row.value(std::string("probe_all_ms_") + d, 0.0),
                row.value(std::string("probe_fixed_ms_") + d, 0.0));
    }
  }
}

void check_two_device_run(const std::string& axis) {
  if (!opencl_device_present()) GTEST_SKIP() << "no OpenCL device here";
  std::string specs;
  for (const std::string& s : kSpecs) specs += (specs.empty() ? "" : ",") + s;
  const SplitRun run =
      run_split("--split " + specs + " --split-axis " + axis + " --cl-split-devices 0:0,0:0");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  ASSERT_TRUE(run.report.is_object() && run.report.contains("benchmarks")) << "unreadable JSON";
  EXPECT_EQ(run.report["context"].value("gpucmp.skipped_count", ""), "0");
  // Every expected row once, and no other.
  std::set<std::string> want, seen;
  for (const Kernel& k : kernels())
    for (const std::string& s : kSpecs)
      want.insert(k.prefix + "/devices:2/split:" + s + "/axis:" + (k.one_d ? "x" : axis));
  for (const json& row : run.report["benchmarks"]) {
    const std::string name = row_name(row);
    EXPECT_TRUE(seen.insert(name).second) << "twice: " << name;
    for (const Kernel& k : kernels())
      for (const std::string& s : kSpecs)
        if (name == k.prefix + "/devices:2/split:" + s + "/axis:" + (k.one_d ? "x" : axis))
          check_row(row, k, s);
  }
  EXPECT_EQ(seen, want);
}

TEST(SplitRun, EverySplitAlongYRunsValidated) { check_two_device_run("y"); }

TEST(SplitRun, EverySplitAlongXRunsValidated) { check_two_device_run("x"); }

TEST(SplitRun, OneDeviceSkipsTheRowsWithoutErrors) {
  if (!opencl_device_present()) GTEST_SKIP() << "no OpenCL device here";
  const SplitRun run = run_split("--split equal,share:0.3 --cl-split-devices 0:0");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  const std::string why =
      "split rows need 2 or more devices; opencl has 1 (name them with --cl-split-devices; a "
      "device may be named twice)";
  std::set<std::string> want;
  for (const Kernel& k : kernels())
    for (const char* s : {"equal", "share:0.3"})
      want.insert(k.prefix + "/devices:1/split:" + s + "/axis:" + (k.one_d ? "x" : "y"));
  // One console line per row ("<name>/iterations:1/manual_time  skipped: ..."),
  // and the summary warning.
  int skipped_lines = 0, warnings = 0;
  for (const std::string& line : nonempty_lines(run.process.output)) {
    EXPECT_EQ(line.find("gpucmp-bench: error"), std::string::npos) << line;
    EXPECT_EQ(line.find("ERROR OCCURRED"), std::string::npos) << line;
    if (line.find("skipped: " + why) == std::string::npos) continue;
    if (want.count(line.substr(0, line.find("/iterations:"))) != 0)
      ++skipped_lines;
    else
      warnings += int(line == "gpucmp-bench: warning: opencl: 6 benchmarks skipped: " + why);
  }
  EXPECT_EQ(warnings, 1) << run.process.output;
  EXPECT_EQ(skipped_lines, 6) << run.process.output;
  ASSERT_TRUE(run.report.is_object()) << "unreadable JSON";
  for (const json& row : run.report["benchmarks"])
    ADD_FAILURE() << "a row for a skipped benchmark: " << row_name(row);
  const json& ctx = run.report["context"];
  EXPECT_EQ(ctx.value("gpucmp.skipped_count", ""), "6");
  EXPECT_NE(ctx.value("gpucmp.skipped", "").find(why), std::string::npos);
  std::set<std::string> listed;
  std::istringstream list(ctx.value("gpucmp.skipped_benchmarks", ""));
  for (std::string name; std::getline(list >> std::ws, name, ',');) listed.insert(name);
  EXPECT_EQ(listed, want);
}

}  // namespace
}  // namespace gpucmp::test
