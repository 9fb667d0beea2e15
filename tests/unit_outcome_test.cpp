// Unit tests of the run's outcome (outcome.h): the exit code, the kept
// results and the paired summary, and the launch-bound rule (launch_floor.h).
// Expected values are computed by hand, not by the code under test.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "launch_floor.h"
#include "naming.h"
#include "outcome.h"

namespace gpucmp {
namespace {

// ---- Outcome ----------------------------------------------------------------

RunResult result(const std::string& api, double seconds, double pct = 0) {
  RunResult r;
  r.name = BenchName{"matrixMul", api, "tile16", {{"n", "1024"}}};
  r.seconds = seconds;
  r.pct_peak = pct;
  return r;
}

TEST(Outcome, ExitCodeIsTheWorstSeen) {
  Outcome o;
  EXPECT_EQ(o.exit_code(), 0);
  o.fail(kExitFailed, "validation failed");
  EXPECT_EQ(o.exit_code(), 1);
  o.fail(kExitUsage, "bad size");
  EXPECT_EQ(o.exit_code(), 2);
  o.fail(kExitFailed, "another");
  EXPECT_EQ(o.exit_code(), 2);  // a later, milder failure does not lower it
  ASSERT_EQ(o.failures().size(), 3u);
  EXPECT_EQ(o.failures()[0], "validation failed");
  EXPECT_EQ(o.failures()[1], "bad size");
}

TEST(Outcome, RecordKeepsResults) {
  Outcome o;
  o.record(result("cuda", 1e-3));
  o.record(result("opencl", 2e-3));
  ASSERT_EQ(o.results().size(), 2u);
  EXPECT_EQ(o.results()[1].name.api, "opencl");
  EXPECT_DOUBLE_EQ(o.results()[1].seconds, 2e-3);
}

TEST(Outcome, PairedSummaryPrintsRatioForKeysOnBothApis) {
  Outcome o;
  o.record(result("cuda", 1e-3, 50.0));
  o.record(result("opencl", 2e-3, 25.0));
  std::ostringstream out;
  o.print_paired_summary(out);
  const std::string text = out.str();
  EXPECT_EQ(text.find("no benchmark ran on both"), std::string::npos) << text;
  // Find the row of the pair key.
  std::istringstream lines(text);
  std::string row;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("matrixMul/tile16/n:1024", 0) == 0) row = line;
  ASSERT_FALSE(row.empty()) << text;
  EXPECT_NE(row.find("2.00"), std::string::npos) << row;      // 2e-3 / 1e-3
  EXPECT_NE(row.find("1.000 ms"), std::string::npos) << row;  // CUDA time
  EXPECT_NE(row.find("2.000 ms"), std::string::npos) << row;  // OpenCL time
  EXPECT_NE(row.find("50.0%"), std::string::npos) << row;
  EXPECT_NE(row.find("25.0%"), std::string::npos) << row;
}

// A launch-bound time is marked '*' (most repetitions bound), with one note.
TEST(Outcome, PairedSummaryMarksLaunchBoundTimes) {
  Outcome o;
  RunResult c = result("cuda", 4e-6), b = result("opencl", 6e-6);
  b.launch_bound = true;
  o.record(c);
  o.record(b);
  o.record(b);
  o.record(result("opencl", 7e-6));
  std::ostringstream out;
  o.print_paired_summary(out);
  const std::string text = out.str();
  EXPECT_NE(text.find("6.00 us*"), std::string::npos) << text;
  EXPECT_EQ(text.find("4.00 us*"), std::string::npos) << text;
  EXPECT_NE(text.find("* launch-bound: within 5% of its API's launch floor"), std::string::npos)
      << text;
  Outcome unbound;
  unbound.record(result("cuda", 4e-6));
  unbound.record(result("opencl", 6e-6));
  std::ostringstream plain;
  unbound.print_paired_summary(plain);
  EXPECT_EQ(plain.str().find("launch-bound"), std::string::npos) << plain.str();
}

TEST(LaunchFloor, BoundWithinTheMarginOfItsCommandsAtTheFloor) {
  EXPECT_TRUE(launch_bound(5.0e-6, 1, 5.0e-6).bound);
  EXPECT_TRUE(launch_bound(5.2e-6, 1, 5.0e-6).bound);   // 4% above
  EXPECT_FALSE(launch_bound(5.3e-6, 1, 5.0e-6).bound);  // 6% above
  EXPECT_TRUE(launch_bound(3.0e-5, 6, 5.0e-6).bound);   // six commands at the floor
  EXPECT_FALSE(launch_bound(3.0e-5, 1, 5.0e-6).bound);
  EXPECT_DOUBLE_EQ(launch_bound(1.0e-5, 2, 2.5e-6).ratio, 2.0);
}

TEST(Outcome, PairedSummaryUsesMedianOverRepetitions) {
  Outcome o;
  // CUDA median 1e-3 (1e-3, 1e-3, 9e-3), OpenCL median 3e-3 -> ratio 3.00.
  o.record(result("cuda", 1e-3));
  o.record(result("cuda", 9e-3));
  o.record(result("cuda", 1e-3));
  o.record(result("opencl", 3e-3));
  std::ostringstream out;
  o.print_paired_summary(out);
  EXPECT_NE(out.str().find("3.00"), std::string::npos) << out.str();
}

TEST(Outcome, PairedSummaryWithOnlyOneApi) {
  Outcome o;
  o.record(result("opencl", 2e-3));
  o.record(result("opencl", 3e-3));
  std::ostringstream out;
  o.print_paired_summary(out);
  EXPECT_NE(out.str().find("no benchmark ran on both CUDA and OpenCL"), std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("matrixMul/tile16"), std::string::npos) << out.str();
}

TEST(Outcome, PairedSummaryEmpty) {
  Outcome o;
  std::ostringstream out;
  o.print_paired_summary(out);
  EXPECT_NE(out.str().find("no benchmark ran on both"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace gpucmp
