// Unit tests of launch geometry as a parameter (harness/launch_shape.h,
// local_rows.h): legal shapes, the study's rule, parsing and its errors, how
// a row resolves its rule. The tuner itself: unit_local_choice_test.cpp. No
// device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_info.h"
#include "errors.h"
#include "launch_shape.h"
#include "local_choice.h"
#include "local_rows.h"
#include "measure.h"
#include "shape_fixtures.h"

namespace gpucmp {
namespace {

using test::h200;
using test::k1d;
using test::k2d;

TEST(LaunchShape, CandidatesAreTheDivisorPairsWithinTheLimit) {
  const std::vector<LocalShape> all = candidate_shapes(k2d, {});
  // x = 2^i, y = 2^j with i + j <= 10: 66 pairs.
  EXPECT_EQ(all.size(), 66u);
  for (const LocalShape& s : all) {
    EXPECT_EQ(1024 % s.x, 0);
    EXPECT_EQ(1024 % s.y, 0);
    EXPECT_LE(s.size(), 1024);
  }
  EXPECT_EQ(all.front(), (LocalShape{1, 1}));
  EXPECT_EQ(all.back(), (LocalShape{1024, 1}));
  // 1-D: the divisors of 2^17 up to 1024, 1..1024.
  EXPECT_EQ(candidate_shapes(k1d, {}).size(), 11u);
  // Not a power of two: 12 has divisors 1 2 3 4 6 12; a limit of 4 keeps 4.
  EXPECT_EQ(candidate_shapes({1, 12, 1}, {4, 4, 4}).size(), 4u);
  // Per-dimension limits (CUDA's maxThreadsDim.z-like 64 along y).
  for (const LocalShape& s : candidate_shapes(k2d, {1024, 1024, 64})) EXPECT_LE(s.y, 64);
}

TEST(LaunchShape, CheckNamesTheRuleItBreaks) {
  const auto message = [](LocalShape s, GlobalSize g, LocalLimits l) {
    try {
      check_local_shape(s, g, l, "--x-local");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message({32, 8}, k2d, {}), "accepted");
  EXPECT_EQ(message({}, k2d, {}), "accepted");  // the driver's choice
  EXPECT_NE(message({48, 1}, k2d, {}).find("does not divide the global size 1024 along x"),
            std::string::npos);
  EXPECT_NE(message({32, 3}, k2d, {}).find("along y"), std::string::npos);
  EXPECT_NE(
      message({64, 32}, k2d, {}).find("exceeds the device limit of 1024 work-items per group"),
      std::string::npos);
  EXPECT_NE(message({1, 128}, k2d, {1024, 1024, 64}).find("64 work-items along y"),
            std::string::npos);
  EXPECT_NE(message({32, 2}, k1d, {}).find("2-D"), std::string::npos);
}

TEST(LaunchShape, StudyRule) {
  // 1-D: the smallest legal size >= the lanes of one SM.
  EXPECT_EQ(study_rule_shape(k1d, {}, 128, true), (LocalShape{128, 1}));
  EXPECT_EQ(study_rule_shape(k1d, {}, 192, true), (LocalShape{256, 1}));
  EXPECT_EQ(study_rule_shape({1, 96, 1}, {}, 128, true), (LocalShape{96, 1}));  // none >= 128
  // 2-D: x * y < 1024 and a multiple of 16; the priority axis largest.
  EXPECT_EQ(study_rule_shape(k2d, {}, 128, true), (LocalShape{512, 1}));
  EXPECT_EQ(study_rule_shape(k2d, {}, 128, false), (LocalShape{1, 512}));
  // 24 x 24: x = 24 is the largest x; with it, 24 x 24 = 576 is the largest
  // group below 1024 that is a multiple of 16.
  EXPECT_EQ(study_rule_shape({2, 24, 24}, {}, 128, true), (LocalShape{24, 24}));
  // Nothing qualifies (3 x 5 ranges): (max, 1) / (1, max).
  EXPECT_EQ(study_rule_shape({2, 3, 5}, {}, 128, true), (LocalShape{3, 1}));
  EXPECT_EQ(study_rule_shape({2, 3, 5}, {}, 128, false), (LocalShape{1, 5}));
}

TEST(LaunchShape, BlockSizeBecomesADividingShape) {
  EXPECT_EQ(shape_for_block_size(768, k1d, {}), (LocalShape{512, 1}));
  EXPECT_EQ(shape_for_block_size(1024, k2d, {}), (LocalShape{1024, 1}));
  EXPECT_EQ(shape_for_block_size(256, {2, 96, 64}, {}), (LocalShape{96, 2}));
}

TEST(LaunchShape, ParseAndExpand) {
  const std::vector<LocalSpec> specs = parse_local_specs(
      {"32x8", "driver", "study-x", "study-y", "tuner", "sweep", "query"}, "--o", 2);
  ASSERT_EQ(specs.size(), 7u);
  EXPECT_EQ(to_string(specs[6], 2), "query");
  EXPECT_EQ(to_string(specs[0], 2), "32x8");
  EXPECT_EQ(to_string(specs[2], 2), "study-x");
  const std::vector<LocalSpec> rows = expand_local_specs(specs, k2d, "--o");
  EXPECT_EQ(rows.size(), 1u + 4u + 65u + 1u);  // 32x8 once (the sweep's copy is dropped)
  EXPECT_FALSE(rows[0].from_sweep);
  EXPECT_TRUE(rows[rows.size() - 2].from_sweep);
  EXPECT_EQ(to_string(parse_local_specs({"256"}, "--o", 1)[0], 1), "256");
}

TEST(LaunchShape, ParseRefusesWithOneLineNamingTheItem) {
  const auto error = [](const std::vector<std::string>& items, int dims) {
    try {
      parse_local_specs(items, "--mmnaive-local", dims);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error({"256"}, 2).find("--mmnaive-local 256: the kernel is 2-D"), std::string::npos);
  EXPECT_NE(error({"16x16"}, 1).find("the kernel is 1-D"), std::string::npos);
  EXPECT_NE(error({"study-x"}, 1).find("'study'"), std::string::npos);
  EXPECT_NE(error({"study"}, 2).find("study-x"), std::string::npos);
  EXPECT_NE(error({"0x4"}, 2).find("--mmnaive-local 0x4"), std::string::npos);
  EXPECT_NE(error({"fast"}, 1).find("--mmnaive-local fast"), std::string::npos);
  EXPECT_NE(error({}, 1).find("empty"), std::string::npos);
  // A fixed shape that does not divide this size: caught when the rows are made.
  EXPECT_THROW(expand_local_specs(parse_local_specs({"48x1"}, "--o", 2), k2d, "--o"), UsageError);
}

TEST(LocalRows, ResolveChecksTheDeviceLimitAndSkipsSweepShapesOverIt) {
  DeviceInfo d = h200();
  d.max_group_size = 256;
  const ShapedRunnerFactory none = [](const LocalShape&) -> std::unique_ptr<Runner> {
    return nullptr;
  };
  EXPECT_THROW(resolve_local({LocalRule::fixed, {32, 16}}, k2d, d, none, "row"), UsageError);
  EXPECT_THROW(resolve_local({LocalRule::fixed, {32, 16}, true}, k2d, d, none, "row"), Unavailable);
  EXPECT_EQ(resolve_local({LocalRule::fixed, {32, 8}}, k2d, d, none, "row").shape,
            (LocalShape{32, 8}));
  EXPECT_EQ(resolve_local({LocalRule::study_x, {}}, k2d, d, none, "row").shape,
            (LocalShape{256, 1}));
  EXPECT_TRUE(resolve_local({LocalRule::driver, {}}, k2d, d, none, "row").shape.by_driver());
}

// A runner whose launch takes 1 ms over its group size (larger is faster) and
// whose kernel, its API says, launches groups of at most 128.
class ShapedRunner : public Runner {
 public:
  explicit ShapedRunner(LocalShape s) : s_(s) {}
  void upload() override {}
  BatchTiming time_batch(int launches) override {
    BatchTiming t;
    t.device_s = launches * 1e-3 / double(std::max<long long>(1, s_.size()));
    return t;
  }
  void download() override {}
  void flush_l2(std::size_t) override {}
  KernelResources kernel_resources() const override { return {40, 0, 128}; }

 private:
  LocalShape s_;
};

// The tuner's budget on a 1-D range of 9 legal shapes is 3; its model is fed
// the kernel's own resources, asked of a runner made without a shape, and
// the row's counters say what it knew; no shape over the kernel's largest
// group is timed.
TEST(LocalRows, TheTunerTimesThreeShapesWithTheKernelsResources) {
  DeviceInfo d = h200();
  d.max_group_size = 256;
  std::vector<LocalShape> made;
  const ShapedRunnerFactory make = [&made](const LocalShape& s) -> std::unique_ptr<Runner> {
    made.push_back(s);
    return std::make_unique<ShapedRunner>(s);
  };
  const LocalChoice c = resolve_local({LocalRule::tuner, {}}, k1d, d, make, "row");
  EXPECT_EQ(c.candidates, 9);  // 1 .. 256
  EXPECT_GE(c.measured, 2);    // the climb stops where every neighbour is timed
  EXPECT_LE(c.measured, 3);
  EXPECT_EQ(c.shape, (LocalShape{128, 1}));
  EXPECT_EQ(c.kernel.registers, 40);
  EXPECT_EQ(c.kernel.max_threads, 128);
  ASSERT_FALSE(made.empty());
  EXPECT_TRUE(made.front().by_driver()) << "the resources are asked first, of no shape";
  for (const LocalShape& s : made) EXPECT_LE(s.size(), 128) << to_string(s, 1);
  Measurement m;
  add_local_counters(m, c);
  bool regs = false;
  for (const auto& [name, value] : m.counters)
    if (name == "tuner_kernel_regs") regs = value == 40;
  EXPECT_TRUE(regs);
}

// A runner that only answers suggested_group_size().
class SuggestingRunner : public Runner {
 public:
  explicit SuggestingRunner(int block) : block_(block) {}
  void upload() override {}
  BatchTiming time_batch(int) override { return {}; }
  void download() override {}
  void flush_l2(std::size_t) override {}
  int suggested_group_size() const override { return block_; }

 private:
  int block_;
};

TEST(LocalRows, DriverIsNullOnOpenClAndTheOccupancyShapeOnCuda) {
  DeviceInfo d = h200();
  const ShapedRunnerFactory suggest768 = [](const LocalShape&) -> std::unique_ptr<Runner> {
    return std::make_unique<SuggestingRunner>(768);
  };
  d.api = "opencl";
  EXPECT_TRUE(resolve_local({LocalRule::driver, {}}, k1d, d, suggest768, "row").shape.by_driver());
  EXPECT_EQ(resolve_local({LocalRule::query, {}}, k1d, d, suggest768, "row").shape,
            (LocalShape{512, 1}));  // the largest divisor of 2^17 not above 768
  d.api = "cuda";
  EXPECT_EQ(resolve_local({LocalRule::driver, {}}, k1d, d, suggest768, "row").shape,
            (LocalShape{512, 1}));
  EXPECT_EQ(resolve_local({LocalRule::query, {}}, k2d, d, suggest768, "row").shape,
            (LocalShape{512, 1}));
  const ShapedRunnerFactory silent = [](const LocalShape&) -> std::unique_ptr<Runner> {
    return std::make_unique<SuggestingRunner>(0);
  };
  EXPECT_THROW(resolve_local({LocalRule::query, {}}, k1d, d, silent, "row"), std::logic_error);
}

}  // namespace
}  // namespace gpucmp
