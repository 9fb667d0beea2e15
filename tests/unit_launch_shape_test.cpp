// Unit tests of launch geometry as a parameter (harness/launch_shape.h,
// local_choice.h, local_rows.h): legal shapes, the study's rule, parsing and
// its errors, the tuner's model and budget. No device needed.
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

namespace gpucmp {
namespace {

const GlobalSize k2d{2, 1024, 1024};
const GlobalSize k1d{1, 1 << 17, 1};

DeviceInfo h200() {
  DeviceInfo d;
  d.compute_units = 132;
  d.cc_major = 9;
  d.lanes_per_cu = 128;
  d.max_group_size = 1024;
  d.max_group_x = 1024;
  d.max_group_y = 1024;
  return d;
}

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

TEST(LocalChoice, ModelPenalisesPartialWarpsNarrowRowsTailsAndSmallBlocks) {
  const DeviceInfo d = h200();
  EXPECT_DOUBLE_EQ(model_score({32, 8}, k2d, d), model_score({256, 1}, k2d, d));
  EXPECT_LT(model_score({16, 1}, k2d, d), model_score({32, 1}, k2d, d));         // half a warp
  EXPECT_LT(model_score({4, 64}, k2d, d), model_score({32, 8}, k2d, d));         // 8 rows per warp
  EXPECT_DOUBLE_EQ(model_score({8, 32}, k2d, d), model_score({32, 8}, k2d, d));  // whole sectors
  EXPECT_LT(model_score({32, 1}, k2d, d), model_score({32, 8}, k2d, d));         // block cost
  // 2^17 work-items in groups of 1024 on 132 SMs: 128 blocks, 4 SMs idle.
  EXPECT_NEAR(model_score({1024, 1}, k1d, d), 128.0 / 132.0 * 1024.0 / 1056.0, 1e-12);
  // 33 blocks of 1024 on 32 SMs: the busiest SM runs 2, the rest 1.
  DeviceInfo small = d;
  small.compute_units = 32;
  EXPECT_NEAR(model_score({1024, 1}, {1, 33LL * 1024, 1}, small),
              (33.0 / 32.0) / 2.0 * 1024.0 / 1056.0, 1e-12);
}

TEST(LocalChoice, BudgetIsATenthAndAtLeastThree) {
  EXPECT_EQ(tuner_budget(66), 6);
  EXPECT_EQ(tuner_budget(11), 3);
  EXPECT_EQ(tuner_budget(3), 3);
  EXPECT_EQ(tuner_budget(2), 2);  // never more than there are
  EXPECT_EQ(tuner_budget(0), 0);
}

// The kernel's own registers and shared memory bound the blocks an SM holds
// (H200: 65536 registers, 228 KB), as the occupancy calculator counts them.
TEST(LocalChoice, KernelResourcesBoundTheBlocksAnSmHolds) {
  const SmLimits sm = sm_limits(h200());
  EXPECT_EQ(sm.registers, 65536);
  EXPECT_EQ(sm.shared, 228 * 1024);
  EXPECT_EQ(blocks_per_sm(256, sm, {}), 8);  // the threads' limit
  // 64 registers: 2048 a warp, 8 warps a block: 4 blocks.
  EXPECT_EQ(blocks_per_sm(256, sm, {64, 0, 0}), 4);
  // 33 registers are allocated as 40 (1280 a warp): 6 blocks of 8 warps.
  EXPECT_EQ(blocks_per_sm(256, sm, {33, 0, 0}), 6);
  // 48 KB of shared memory and 1 KB reserved a block: 4 blocks in 228 KB.
  EXPECT_EQ(blocks_per_sm(256, sm, {0, 48LL * 1024, 0}), 4);
  EXPECT_EQ(blocks_per_sm(1024, sm, {0, 0, 512}), 0);  // over the kernel's own largest block
  EXPECT_EQ(blocks_per_sm(1024, sm, {128, 0, 0}), 0);  // 128 x 1024 registers do not fit
}

// The largest block whose registers fit an SM, in whole warps: the sizes
// NVIDIA's OpenCL driver launched on an H200 (driver 580; probe of
// scripts/experiments/group_size, every size in steps of 32: 15, 38 and 55
// registers launch 1024 work-items, 71 896, 87 640, 105 512, 137 384, and not
// one warp more).
TEST(LocalChoice, RegisterLimitedBlockIsTheRegisterFilesBound) {
  const SmLimits sm = sm_limits(h200());
  EXPECT_EQ(register_limited_block(15, sm, 1024), 1024);
  EXPECT_EQ(register_limited_block(38, sm, 1024), 1024);
  EXPECT_EQ(register_limited_block(55, sm, 1024), 1024);
  EXPECT_EQ(register_limited_block(71, sm, 1024), 896);   // 2304 a warp: 7 a quarter
  EXPECT_EQ(register_limited_block(87, sm, 1024), 640);   // 2816: 5 a quarter, not 23 in all
  EXPECT_EQ(register_limited_block(105, sm, 1024), 512);  // 3584: 4 a quarter
  EXPECT_EQ(register_limited_block(137, sm, 1024), 384);  // 4608: 3 a quarter
  EXPECT_EQ(register_limited_block(255, sm, 1024), 256);  // 8192: 2 a quarter
  EXPECT_EQ(register_limited_block(64, sm, 1024), 1024);  // exactly the file
  EXPECT_EQ(register_limited_block(65, sm, 1024), 896);
  EXPECT_EQ(register_limited_block(32, sm, 512), 512) << "never over the device's largest";
  EXPECT_EQ(register_limited_block(0, sm, 1024), 0) << "registers not known";
  EXPECT_EQ(register_limited_block(32, sm, 0), 0) << "device limit not known";
  // Whatever it returns launches by the model's own count: one block fits.
  for (int regs = 1; regs <= 255; ++regs) {
    SCOPED_TRACE(regs);
    const int block = register_limited_block(regs, sm, 1024);
    EXPECT_EQ(block % 32, 0);
    EXPECT_GE(blocks_per_sm(block, sm, {regs, 0, block}), 1);
    if (block < 1024) {
      EXPECT_EQ(blocks_per_sm(block + 32, sm, {regs, 0, 0}), 0);
    }
  }
}

TEST(LocalChoice, TheModelSeesTheKernelsRegisters) {
  const DeviceInfo d = h200();
  // 2^17 work-items in groups of 1024: without registers 2 blocks an SM
  // (full occupancy); with 64 a thread, 1 (half): no loss yet at one half.
  EXPECT_DOUBLE_EQ(model_score({1024, 1}, k1d, d, {64, 0, 0}), model_score({1024, 1}, k1d, d));
  // 128 registers a thread: groups of 256 fit 2 blocks, a quarter of the
  // threads: a loss by half; groups of 1024 cannot launch.
  EXPECT_DOUBLE_EQ(model_score({256, 1}, k1d, d, {128, 0, 0}), 0.5 * model_score({256, 1}, k1d, d));
  EXPECT_EQ(model_score({1024, 1}, k1d, d, {128, 0, 0}), 0.0);
}

TEST(LocalChoice, TheTunerNeverTimesAShapeTheKernelCannotLaunch) {
  const std::vector<LocalShape> all = candidate_shapes(k1d, {});
  const ShapeTimer timer = [](const LocalShape& s) {
    EXPECT_LE(s.size(), 256) << to_string(s, 1);
    return 1.0 / double(s.size());  // larger is faster: the climb pushes up
  };
  const TunerResult r = tune_local(all, k1d, h200(), 5, timer, {0, 0, 256});
  EXPECT_EQ(r.shape, (LocalShape{256, 1}));
  EXPECT_EQ(r.candidates, int(all.size()));
}

TEST(LocalChoice, RankingPutsWarpWideRowsFirstWithinASize) {
  const std::vector<LocalShape> ranked = model_ranking(candidate_shapes(k2d, {}), k2d, h200());
  ASSERT_EQ(ranked.size(), 66u);
  for (std::size_t i = 1; i < ranked.size(); ++i)
    EXPECT_GE(model_score(ranked[i - 1], k2d, h200()), model_score(ranked[i], k2d, h200()));
  EXPECT_EQ(ranked.front(), (LocalShape{32, 32}));
}

// A synthetic kernel whose time is smallest at `best` and grows with the
// distance in log2 steps along x and y.
ShapeTimer bowl(LocalShape best, int* calls) {
  return [best, calls](const LocalShape& s) {
    ++*calls;
    return 1.0 + std::abs(std::log2(double(s.x) / best.x)) +
           0.5 * std::abs(std::log2(double(s.y) / best.y));
  };
}

TEST(LocalChoice, TunerFindsTheBottomWithinItsBudget) {
  const std::vector<LocalShape> all = candidate_shapes(k2d, {});
  for (const LocalShape best : {LocalShape{32, 4}, LocalShape{64, 8}, LocalShape{16, 16}}) {
    int calls = 0;
    const TunerResult r = tune_local(all, k2d, h200(), tuner_budget(66), bowl(best, &calls));
    EXPECT_EQ(r.shape, best) << to_string(best, 2) << ": got " << to_string(r.shape, 2);
    // Each shape timed once, then the two fastest twice more each.
    EXPECT_EQ(calls, r.measured + 4);
    EXPECT_LE(r.measured, 6);
    EXPECT_EQ(r.candidates, 66);
  }
}

// The start's first timing is a lucky outlier (0.1 instead of 2.5): the climb
// never beats it, but timing the two fastest again overrules it.
TEST(LocalChoice, RetimingOverrulesAOneOffFastTiming) {
  const std::vector<LocalShape> all = candidate_shapes(k2d, {});
  const LocalShape start = model_ranking(all, k2d, h200()).front();
  int calls = 0;
  const ShapeTimer honest = bowl({32, 4}, &calls);
  bool lucky = true;
  const ShapeTimer timer = [&](const LocalShape& s) {
    const double t = honest(s);
    if (s == start && lucky) {
      lucky = false;
      return 0.1;
    }
    return t;
  };
  const TunerResult r = tune_local(all, k2d, h200(), tuner_budget(66), timer);
  EXPECT_NE(r.shape, start);
  int ignored = 0;
  EXPECT_LT(bowl({32, 4}, &ignored)(r.shape), bowl({32, 4}, &ignored)(start));
}

// On a 1-D range a step that helped is tried again at twice its reach, and
// a miss halves it: from 1024 toward a bottom at 32, 512, then 128, then 8
// (past it), then 32.
TEST(LocalChoice, OnALineTheClimbBracketsThenBisects) {
  const std::vector<LocalShape> all = candidate_shapes(k1d, {});
  ASSERT_EQ(model_ranking(all, k1d, h200()).front(), (LocalShape{1024, 1}));
  std::vector<int> order;
  int calls = 0;
  const ShapeTimer line = bowl({32, 1}, &calls);
  const ShapeTimer timer = [&](const LocalShape& s) {
    order.push_back(s.x);
    return line(s);
  };
  const TunerResult r = tune_local(all, k1d, h200(), 5, timer);
  EXPECT_EQ(r.shape, (LocalShape{32, 1}));
  ASSERT_GE(order.size(), 5u);
  EXPECT_EQ(std::vector<int>(order.begin(), order.begin() + 5),
            (std::vector<int>{1024, 512, 128, 8, 32}));
  // With three timings it gets as far as 128, the fastest of the three.
  order.clear();
  EXPECT_EQ(tune_local(all, k1d, h200(), 3, timer).shape, (LocalShape{128, 1}));
  EXPECT_EQ(std::vector<int>(order.begin(), order.begin() + 3), (std::vector<int>{1024, 512, 128}));
}

TEST(LocalChoice, ABudgetOfOneMeasuresNothing) {
  int calls = 0;
  const std::vector<LocalShape> all = candidate_shapes(k1d, {});
  const TunerResult r = tune_local(all, k1d, h200(), 1, bowl({64, 1}, &calls));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(r.measured, 0);
  EXPECT_EQ(r.shape, model_ranking(all, k1d, h200()).front());
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
