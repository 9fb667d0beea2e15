// Unit tests of the harness's host-side helpers: statistics, names, validation,
// device peaks, option parsing and batch sizing (random numbers:
// unit_rng_test.cpp; the run's outcome: unit_outcome_test.cpp).
// Expected values are computed by hand (see the comments), not by the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "device_info.h"
#include "errors.h"
#include "measure.h"
#include "naming.h"
#include "options.h"
#include "stats.h"
#include "validation.h"

namespace gpucmp {
namespace {

// ---- summarize() ------------------------------------------------------------

TEST(Summarize, KnownEvenSample) {
  // {1,2,3,4}: mean 2.5, median (2+3)/2 = 2.5,
  // squared deviations 2.25+0.25+0.25+2.25 = 5, sample variance 5/3.
  const Summary s = summarize({4, 1, 3, 2});  // unsorted on purpose
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 4.0);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0));
  EXPECT_DOUBLE_EQ(s.cv, std::sqrt(5.0 / 3.0) / 2.5);
}

TEST(Summarize, OddCountMedianIsMiddleValue) {
  // Sorted {1, 2, 10}: median 2, mean 13/3.
  const Summary s = summarize({10, 1, 2});
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.median, 2.0);
  EXPECT_DOUBLE_EQ(s.mean, 13.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 10.0);
}

TEST(Summarize, SingleValueHasZeroStddev) {
  const Summary s = summarize({7.5});
  EXPECT_EQ(s.count, 1u);
  EXPECT_DOUBLE_EQ(s.mean, 7.5);
  EXPECT_DOUBLE_EQ(s.median, 7.5);
  EXPECT_DOUBLE_EQ(s.min, 7.5);
  EXPECT_DOUBLE_EQ(s.max, 7.5);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.cv, 0.0);
}

TEST(Summarize, EmptySampleHasCountZero) {
  const Summary s = summarize({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.mean, 0.0);
  EXPECT_EQ(s.median, 0.0);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.cv, 0.0);
}

TEST(Summarize, ZeroMeanGivesZeroCv) {
  // {-1, 1}: mean 0, stddev sqrt(2/1); cv is defined as 0 when mean == 0.
  const Summary s = summarize({-1, 1});
  EXPECT_DOUBLE_EQ(s.mean, 0.0);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(2.0));
  EXPECT_EQ(s.cv, 0.0);
}

// ---- BenchName / parse_bench_name() -------------------------------------------

BenchName mm_name() { return BenchName{"matrixMul", "opencl", "tile16", {{"n", "1024"}}}; }

TEST(BenchName, StrJoinsAllParts) { EXPECT_EQ(mm_name().str(), "matrixMul/opencl/tile16/n:1024"); }

TEST(BenchName, StrWithSeveralParamsAndNone) {
  const BenchName two{"w", "cuda", "v", {{"a", "1"}, {"b", "x"}}};
  EXPECT_EQ(two.str(), "w/cuda/v/a:1/b:x");
  const BenchName none{"w", "cuda", "v", {}};
  EXPECT_EQ(none.str(), "w/cuda/v");
}

TEST(BenchName, PairKeyDropsTheApi) {
  EXPECT_EQ(mm_name().pair_key(), "matrixMul/tile16/n:1024");
  BenchName cuda = mm_name();
  cuda.api = "cuda";
  EXPECT_EQ(cuda.pair_key(), mm_name().pair_key());
  EXPECT_NE(cuda.str(), mm_name().str());
}

TEST(ParseBenchName, RoundTrip) {
  const auto parsed = parse_bench_name("matrixMul/opencl/tile16/n:1024");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->workload, "matrixMul");
  EXPECT_EQ(parsed->api, "opencl");
  EXPECT_EQ(parsed->variant, "tile16");
  ASSERT_EQ(parsed->params.size(), 1u);
  EXPECT_EQ(parsed->params[0].name, "n");
  EXPECT_EQ(parsed->params[0].value, "1024");
  EXPECT_EQ(parsed->str(), mm_name().str());
}

TEST(ParseBenchName, RoundTripWithoutParams) {
  const auto parsed = parse_bench_name("bandwidth/cuda/d2d");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->variant, "d2d");
  EXPECT_TRUE(parsed->params.empty());
}

// Google Benchmark appends "/manual_time" (UseManualTime) to every gpucmp name;
// naming.h promises such suffixes are ignored.
TEST(ParseBenchName, IgnoresManualTimeSuffix) {
  const auto parsed = parse_bench_name("matrixMul/cuda/tile16/n:1024/manual_time");
  ASSERT_TRUE(parsed.has_value())
      << "a Google Benchmark run name with /manual_time must parse (naming.h)";
  EXPECT_EQ(parsed->api, "cuda");
  ASSERT_EQ(parsed->params.size(), 1u);
  EXPECT_EQ(parsed->params[0].name, "n");
  EXPECT_EQ(parsed->params[0].value, "1024");
  EXPECT_EQ(parsed->pair_key(), "matrixMul/tile16/n:1024");
}

// Aggregate rows of repeated runs: "<name>/manual_time_mean", "_median", ...
TEST(ParseBenchName, IgnoresManualTimeAggregateSuffix) {
  const auto parsed = parse_bench_name("bandwidth/opencl/d2d/bytes:1024/manual_time_mean");
  ASSERT_TRUE(parsed.has_value())
      << "an aggregate name ending in /manual_time_mean must parse (naming.h)";
  EXPECT_EQ(parsed->workload, "bandwidth");
  EXPECT_EQ(parsed->api, "opencl");
  EXPECT_EQ(parsed->variant, "d2d");
  ASSERT_EQ(parsed->params.size(), 1u);
  EXPECT_EQ(parsed->params[0].name, "bytes");
  EXPECT_EQ(parsed->params[0].value, "1024");
}

// Without manual time the aggregate suffix lands on the last param's value.
TEST(ParseBenchName, StripsAggregateSuffixFromLastValue) {
  const auto parsed = parse_bench_name("bandwidth/opencl/d2d/bytes:1024_median");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->params.size(), 1u);
  EXPECT_EQ(parsed->params[0].value, "1024");
}

// "/repeats:N" carries a colon; it is a Google Benchmark suffix, not a param.
TEST(ParseBenchName, IgnoresRepeatsSuffix) {
  const auto parsed = parse_bench_name("matrixMul/cuda/tile32/n:2048/repeats:5");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->params.size(), 1u);
  EXPECT_EQ(parsed->params[0].name, "n");
  EXPECT_EQ(parsed->params[0].value, "2048");
}

TEST(ParseBenchName, RejectsMalformedNames) {
  EXPECT_FALSE(parse_bench_name("foo").has_value());
  EXPECT_FALSE(parse_bench_name("a//b").has_value());
  EXPECT_FALSE(parse_bench_name("").has_value());
  EXPECT_FALSE(parse_bench_name("a/b").has_value());
  EXPECT_FALSE(parse_bench_name("a/b/c/:5").has_value());  // empty param name
}

// ---- check_elements() / Validation ------------------------------------------

TEST(CheckElements, FindsWorstElementAndDescribesOnlyIt) {
  const std::vector<double> errs = {1e-7, 5e-6, 3e-7, 2e-6};
  std::vector<std::size_t> where_calls;
  const Validation v = check_elements(
      errs.size(), 1e-5, [&](std::size_t i) { return errs[i]; },
      [&](std::size_t i) {
        where_calls.push_back(i);
        return "x[" + std::to_string(i) + "]";
      });
  EXPECT_TRUE(v.ok);
  EXPECT_DOUBLE_EQ(v.max_rel_err, 5e-6);
  EXPECT_DOUBLE_EQ(v.tolerance, 1e-5);
  EXPECT_EQ(v.checked, 4u);
  EXPECT_EQ(v.where, "x[1]");
  ASSERT_EQ(where_calls.size(), 1u);
  EXPECT_EQ(where_calls[0], 1u);
}

TEST(CheckElements, ErrorAboveToleranceFails) {
  const std::vector<double> errs = {0, 0, 0.5, 0};
  const Validation v = check_elements(
      errs.size(), 0.25, [&](std::size_t i) { return errs[i]; },
      [](std::size_t i) { return std::to_string(i); });
  EXPECT_FALSE(v.ok);
  EXPECT_DOUBLE_EQ(v.max_rel_err, 0.5);
  EXPECT_EQ(v.where, "2");
}

TEST(CheckElements, NanCountsAsInfiniteError) {
  const std::vector<double> errs = {1e-9, NAN, 1.0};
  std::size_t worst = 99;
  const Validation v = check_elements(
      errs.size(), 10.0, [&](std::size_t i) { return errs[i]; },
      [&](std::size_t i) {
        worst = i;
        return std::string("nan here");
      });
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(std::isinf(v.max_rel_err));
  EXPECT_GT(v.max_rel_err, 0);
  EXPECT_EQ(worst, 1u);
  EXPECT_EQ(v.where, "nan here");
}

TEST(CheckElements, NanInFirstElementStillFails) {
  const std::vector<double> errs = {NAN, 0.0};
  const Validation v = check_elements(
      errs.size(), 1.0, [&](std::size_t i) { return errs[i]; },
      [](std::size_t i) { return std::to_string(i); });
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.where, "0");
}

TEST(CheckElements, ErrorEqualToToleranceIsOk) {
  const double tol = 0.125;  // exact in binary
  const Validation at = check_elements(
      3, tol, [&](std::size_t i) { return i == 2 ? tol : 0.0; },
      [](std::size_t) { return std::string("w"); });
  EXPECT_TRUE(at.ok);
  EXPECT_EQ(at.max_rel_err, tol);

  const Validation above = check_elements(
      3, tol, [&](std::size_t i) { return i == 2 ? std::nextafter(tol, 1.0) : 0.0; },
      [](std::size_t) { return std::string("w"); });
  EXPECT_FALSE(above.ok);
}

TEST(CheckElements, ZeroElementsIsOkAndNeverCallsWhere) {
  bool called = false;
  const Validation v = check_elements(
      0, 1e-6, [](std::size_t) { return 1.0; },
      [&](std::size_t) {
        called = true;
        return std::string("x");
      });
  EXPECT_TRUE(v.ok);
  EXPECT_EQ(v.checked, 0u);
  EXPECT_FALSE(called);
  EXPECT_TRUE(v.where.empty());
}

TEST(Validation, DescribeNamesTheMeasureAndTheWorst) {
  Validation v;
  v.ok = false;
  v.max_rel_err = 0.5;
  v.tolerance = 1e-5;
  v.checked = 4096;
  v.where = "c[1,2]: got 1, want 2";
  const std::string d = v.describe();
  EXPECT_NE(d.find("max_rel_err"), std::string::npos) << d;
  EXPECT_NE(d.find("4096"), std::string::npos) << d;
  EXPECT_NE(d.find('>'), std::string::npos) << d;
  EXPECT_NE(d.find("c[1,2]: got 1, want 2"), std::string::npos) << d;

  v.ok = true;
  v.where.clear();
  const std::string ok = v.describe();
  EXPECT_NE(ok.find("<="), std::string::npos) << ok;
  EXPECT_EQ(ok.find("worst"), std::string::npos) << ok;
}

// ---- device_info ------------------------------------------------------------

TEST(DeviceInfo, Fp32LanesPerSm) {
  EXPECT_EQ(fp32_lanes_per_sm(9, 0), 128);  // H100 / H200
  EXPECT_EQ(fp32_lanes_per_sm(8, 0), 64);   // A100
  EXPECT_EQ(fp32_lanes_per_sm(8, 6), 128);  // GA10x
  EXPECT_EQ(fp32_lanes_per_sm(8, 9), 128);  // Ada
  EXPECT_EQ(fp32_lanes_per_sm(7, 0), 64);   // V100
  EXPECT_EQ(fp32_lanes_per_sm(0, 0), 0);
  EXPECT_EQ(fp32_lanes_per_sm(3, 5), 0);
  EXPECT_EQ(fp32_lanes_per_sm(99, 0), 0);
}

TEST(DeviceInfo, Fp32FmaPeak) {
  // 132 SMs x 128 lanes x 2 flop x 1.98 GHz = 66908.16 GFLOP/s.
  EXPECT_NEAR(fp32_fma_peak_gflops(132, 9, 0, 1980), 66908.16, 1e-6);
  // 108 x 64 x 2 x 1.41 = 19491.84 (A100).
  EXPECT_NEAR(fp32_fma_peak_gflops(108, 8, 0, 1410), 19491.84, 1e-6);
  EXPECT_EQ(fp32_fma_peak_gflops(132, 1, 0, 1980), 0.0);  // unknown lanes
}

TEST(DeviceInfo, PciePeak) {
  // Gen 5: 32 GT/s x 128/130 x 16 lanes / 8 bits = 63.015... GB/s.
  EXPECT_NEAR(pcie_peak_gbps(5, 16), 32.0 * 128.0 / 130.0 * 16.0 / 8.0, 1e-9);
  EXPECT_NEAR(pcie_peak_gbps(5, 16), 63.0, 0.05);
  // Gen 4 x16: 16 x 128/130 x 2 = 31.5 GB/s.
  EXPECT_NEAR(pcie_peak_gbps(4, 16), 16.0 * 128.0 / 130.0 * 2.0, 1e-9);
  // Gen 2 x8: 5 GT/s x 8/10 x 8 / 8 = 4 GB/s.
  EXPECT_NEAR(pcie_peak_gbps(2, 8), 4.0, 1e-12);
  EXPECT_EQ(pcie_peak_gbps(0, 16), 0.0);
  EXPECT_EQ(pcie_peak_gbps(7, 16), 0.0);
  EXPECT_EQ(pcie_peak_gbps(4, 0), 0.0);
}

TEST(DeviceInfo, PciIdIsLowerCaseHex) {
  EXPECT_EQ(pci_id(0, 0x1b, 0), "0000:1b:00");
  EXPECT_EQ(pci_id(1, 0xAB, 0x1f), "0001:ab:1f");
}

// ---- parse_bytes() ----------------------------------------------------------

TEST(ParseBytes, AcceptsPlainAndBinarySuffixes) {
  EXPECT_EQ(parse_bytes("4096", "--x"), 4096);
  EXPECT_EQ(parse_bytes("64K", "--x"), 65536);
  EXPECT_EQ(parse_bytes("16MiB", "--x"), 16777216);
  EXPECT_EQ(parse_bytes("1G", "--x"), 1LL << 30);
  EXPECT_EQ(parse_bytes("1g", "--x"), 1LL << 30);
  EXPECT_EQ(parse_bytes("2kib", "--x"), 2048);
  EXPECT_EQ(parse_bytes("8B", "--x"), 8);
  EXPECT_EQ(parse_bytes("4G", "--x"), 4LL << 30);  // beyond 32 bits
}

TEST(ParseBytes, RejectsBadInputWithUsageError) {
  for (const char* bad : {"0", "-5", "abc", "12Q", "", "0K", "-1G", "1T"}) {
    EXPECT_THROW(parse_bytes(bad, "--bw-bytes"), UsageError) << "input '" << bad << "'";
  }
}

// 16 GiB written as 16384M is the same count.
TEST(ParseBytes, LargeCountsAreExact) { EXPECT_EQ(parse_bytes("16384M", "--x"), 16LL << 30); }

// A count whose scaled value does not fit in long long must be refused, not
// wrap around (signed overflow is undefined behaviour).
TEST(ParseBytes, RejectsCountsThatOverflow) {
  EXPECT_THROW(parse_bytes("99999999999999999999", "--x"), UsageError);  // stoll range
  EXPECT_THROW(parse_bytes("9999999999G", "--x"), UsageError);           // 9999999999 x 2^30 > 2^63
}

TEST(ParseBytes, ErrorNamesTheOption) {
  try {
    parse_bytes("12Q", "--bw-bytes");
    FAIL() << "no exception";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--bw-bytes"), std::string::npos) << e.what();
  }
}

// ---- batch_size() -----------------------------------------------------------

TEST(BatchSize, LaunchesToFillTheTarget) {
  EXPECT_EQ(batch_size(1e-3, 20e-3), 20);
  EXPECT_EQ(batch_size(3e-3, 20e-3), 6);  // floor(6.67)
}

TEST(BatchSize, ClampsToOneForSlowLaunches) {
  EXPECT_EQ(batch_size(0.5, 20e-3), 1);
  EXPECT_EQ(batch_size(20e-3, 20e-3), 1);
}

TEST(BatchSize, ClampsTo1000ForTinyLaunches) {
  EXPECT_EQ(batch_size(1e-9, 20e-3), 1000);
  EXPECT_EQ(batch_size(10e-6, 20e-3), 1000);  // 2000 launches wanted
}

TEST(BatchSize, NonPositiveOrNanLaunchTimeGivesOne) {
  EXPECT_EQ(batch_size(0, 20e-3), 1);
  EXPECT_EQ(batch_size(-1e-3, 20e-3), 1);
  EXPECT_EQ(batch_size(NAN, 20e-3), 1);
}

}  // namespace
}  // namespace gpucmp
