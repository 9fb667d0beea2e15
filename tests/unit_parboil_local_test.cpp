// Unit tests of the Parboil kernels' local size as a parameter (
// harness/workloads/parboil/local_size.h): each kernel's block rule and its
// one-line errors, the shapes a sweep stands for, the NDRange of a rounding-up
// kernel, and --cp-local / --mriq-local parsing (no device needed).
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "errors.h"
#include "workloads/parboil/cp.h"
#include "workloads/parboil/local_size.h"
#include "workloads/parboil/mri.h"

namespace gpucmp {
namespace {

using parboil::BlockRule;

// The message of the UsageError `f` throws, "" when it throws none.
template <class F>
std::string usage_error(F f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

const cp::Config kQuickCp{128, 128, 2000, 0.1f};

TEST(ParboilLocal, CpBaseRuleIsOneThreadPerPoint) {
  const BlockRule rule = cp::block_rule(kQuickCp, cp::Kernel::base);
  EXPECT_EQ(parboil::threads(rule).x, 128);
  EXPECT_EQ(parboil::threads(rule).y, 128);
  EXPECT_EQ(usage_error([&] { parboil::check_block_rule({128, 8}, rule, "w"); }), "");
  EXPECT_EQ(usage_error([&] {
              parboil::check_block_rule({48, 8}, rule, "--cp-local 48x8");
            }),
            "--cp-local 48x8: cp base runs one thread per point: 48 does not divide the grid's "
            "128 points along x");
  EXPECT_NE(usage_error([&] {
              parboil::check_block_rule({16, 3}, rule, "w");
            }).find("3 does not divide the grid's 128 rows (y)"),
            std::string::npos);
}

// unrollx8: each thread 8 points blockDim.x apart, so 8 X must divide nx.
TEST(ParboilLocal, CpUnrollx8RuleCountsItsEightPointsPerThread) {
  const BlockRule rule = cp::block_rule(kQuickCp, cp::Kernel::unrollx8);
  EXPECT_EQ(parboil::threads(rule).x, 16);
  EXPECT_EQ(usage_error([&] { parboil::check_block_rule({16, 8}, rule, "w"); }), "");
  EXPECT_EQ(usage_error([&] { parboil::check_block_rule({2, 64}, rule, "w"); }), "");
  EXPECT_EQ(usage_error([&] {
              parboil::check_block_rule({32, 8}, rule, "--cp-local 32x8");
            }),
            "--cp-local 32x8: cp unrollx8 runs 8 points per thread, X apart along x: 8 x 32 = "
            "256 does not divide the grid's 128 points along x");
}

// Divisor pairs within 1024 work-items: 128 x 128 points, 8 divisors a side.
TEST(ParboilLocal, CpSweepTilesTheGridWithinNvidiasLimit) {
  const auto base = parboil::sweep_shapes(cp::block_rule(kQuickCp, cp::Kernel::base));
  const auto x8 = parboil::sweep_shapes(cp::block_rule(kQuickCp, cp::Kernel::unrollx8));
  EXPECT_EQ(base.size(), 54u);
  EXPECT_EQ(x8.size(), 39u);
  for (const LocalShape& s : x8) {
    EXPECT_LE(s.x, 16) << to_string(s, 2);
    EXPECT_LE(s.size(), 1024) << to_string(s, 2);
    EXPECT_EQ(usage_error([&] {
                parboil::check_block_rule(s, cp::block_rule(kQuickCp, cp::Kernel::unrollx8), "w");
              }),
              "");
  }
}

// MRI's voxel kernel rounds its grid up and returns for t >= numX: any size.
TEST(ParboilLocal, MriTakesAnySizeAndRoundsTheGridUp) {
  const BlockRule rule = mri::block_rule(mri::Kind::q, 4096);
  EXPECT_TRUE(rule.round_up);
  for (int n : {1, 96, 256, 1000, 1024})
    EXPECT_EQ(usage_error([&] { parboil::check_block_rule({n, 1}, rule, "w"); }), "") << n;
  EXPECT_EQ(parboil::launch_global(rule, {96, 1}).x, 4128);  // 43 blocks of 96
  EXPECT_EQ(parboil::launch_global(rule, {256, 1}).x, 4096);
  const auto sweep = parboil::sweep_shapes(mri::block_rule(mri::Kind::fhd, 32768));
  ASSERT_EQ(sweep.size(), 11u);  // 1, 2, 4, ..., 1024
  EXPECT_EQ(sweep.front().x, 1);
  EXPECT_EQ(sweep.back().x, 1024);
}

TEST(ParboilLocal, DefaultVariantsKeepTheKernelsOwnSizes) {
  for (const cp::Variant& v : cp::variants()) {
    EXPECT_EQ(v.local, (LocalShape{cp::kBlockX, cp::kBlockY})) << v.name;
    EXPECT_TRUE(cp::default_local(v));
  }
  for (const mri::Variant& v : mri::variants()) {
    EXPECT_EQ(v.local, (LocalShape{mri::kBlock, 1})) << v.name;
    EXPECT_TRUE(mri::default_local(v));
  }
}

// Parses `args` with a fresh option; the error line, "" when it parses.
std::string parse_error(parboil::LocalSizes& option, std::vector<std::string> args) {
  CLI::App app;
  option.add_to(app);
  args.insert(args.begin(), "gpucmp-bench");
  std::vector<char*> argv;
  argv.reserve(args.size());
  for (std::string& a : args) argv.push_back(a.data());
  try {
    app.parse(int(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(ParboilLocal, OptionTakesShapesAndSweepOnly) {
  parboil::LocalSizes cp_local("cp", 2, "rule");
  EXPECT_FALSE(cp_local.given());
  EXPECT_EQ(parse_error(cp_local, {"--cp-local", "8x4,sweep"}), "");
  EXPECT_TRUE(cp_local.given());
  parboil::LocalSizes q("mriq", 1, "rule");
  EXPECT_EQ(parse_error(q, {"--mriq-local", "96"}), "");
  EXPECT_NE(parse_error(q, {"--mriq-local", "tuner"})
                .find("--mriq-local tuner: mriq takes N or "
                      "sweep"),
            std::string::npos);
  EXPECT_NE(parse_error(q, {"--mriq-local", "16x16"}).find("--mriq-local 16x16: the kernel is 1-D"),
            std::string::npos);
  parboil::LocalSizes c2("cp", 2, "rule");
  EXPECT_NE(parse_error(c2, {"--cp-local", "256"}).find("--cp-local 256: cp's kernels are 2-D"),
            std::string::npos);
  EXPECT_NE(parse_error(c2, {"--cp-local", "study-x"}).find("not the work-size rules"),
            std::string::npos);
}

// Rows: given shapes checked against the rule, a sweep expanded, a shape
// the sweep holds too once (a shape typed twice is refused, as in every
// list option); every row launches an NDRange its shape divides.
TEST(ParboilLocal, RowsOfAGivenListAndASweep) {
  parboil::LocalSizes twice("cp", 2, "rule");
  EXPECT_NE(parse_error(twice, {"--cp-local", "2x16,sweep,2x16"}).find("2x16: given twice"),
            std::string::npos);
  parboil::LocalSizes option("cp", 2, "rule");
  ASSERT_EQ(parse_error(option, {"--cp-local", "2x16,sweep"}), "");
  const BlockRule rule = cp::block_rule(kQuickCp, cp::Kernel::unrollx8);
  const std::vector<parboil::LocalRow> rows = option.rows(rule, ApiSet{}, "opencl");
  ASSERT_EQ(rows.size(), 39u);
  EXPECT_EQ(rows.front().param().name, "local");
  EXPECT_EQ(rows.front().param().value, "2x16");
  EXPECT_FALSE(rows.front().spec.from_sweep);
  for (const parboil::LocalRow& r : rows) {
    EXPECT_EQ(r.global.x % r.spec.shape.x, 0) << r.param().value;
    EXPECT_EQ(r.global.y % r.spec.shape.y, 0) << r.param().value;
  }
  parboil::LocalSizes bad("cp", 2, "rule");
  ASSERT_EQ(parse_error(bad, {"--cp-local", "32x8"}), "");
  EXPECT_NE(usage_error([&] { bad.rows(rule, ApiSet{}, "opencl"); }).find("--cp-local 32x8: "),
            std::string::npos);
}

// A runner's check once its kernel is built: over the kernel's own limit,
// the row is skipped (Unavailable), naming both.
TEST(ParboilLocal, KernelLimitSkipsTheRow) {
  EXPECT_NO_THROW(parboil::check_kernel_limit({32, 32}, 2, 1024, "src"));
  try {
    parboil::check_kernel_limit({32, 32}, 2, 768, "CL_KERNEL_WORK_GROUP_SIZE");
    FAIL() << "no Unavailable";
  } catch (const Unavailable& e) {
    EXPECT_STREQ(e.what(),
                 "local size 32x32 (1024 work-items) is over this kernel's limit of 768 "
                 "(CL_KERNEL_WORK_GROUP_SIZE)");
  }
}

}  // namespace
}  // namespace gpucmp
