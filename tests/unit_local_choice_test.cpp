// Unit tests of gpucmp's local-size tuner (harness/local_choice.h): the
// model's terms, the budget, the kernel's resources (registers counted by
// quarters of the SM, as NVIDIA's drivers refuse launches), the climb and its
// 1-D line search on synthetic timings. No device needed.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "device_info.h"
#include "launch_shape.h"
#include "local_choice.h"
#include "shape_fixtures.h"

namespace gpucmp {
namespace {

using test::h200;
using test::k1d;
using test::k2d;

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

// On a 1-D range the second timing is the other end (32 from 1024); the
// climb goes on from the faster, a step that helped is tried again at twice
// its reach and a miss halves it.
std::vector<int> line_order(int bottom, int budget, LocalShape* pick) {
  const std::vector<LocalShape> all = candidate_shapes(k1d, {});
  std::vector<int> order;
  int calls = 0;
  const ShapeTimer line = bowl({bottom, 1}, &calls);
  const ShapeTimer timer = [&](const LocalShape& s) {
    order.push_back(s.x);
    return line(s);
  };
  const TunerResult r = tune_local(all, k1d, h200(), budget, timer);
  *pick = r.shape;
  order.resize(std::size_t(r.measured));  // the climb's timings, not the re-timings
  return order;
}

TEST(LocalChoice, OnALineTheTunerBracketsThenClimbs) {
  ASSERT_EQ(model_ranking(candidate_shapes(k1d, {}), k1d, h200()).front(), (LocalShape{1024, 1}));
  LocalShape pick;
  // A bottom at the small end: three timings find it (the old climb, 1024,
  // 512, 128, did not).
  EXPECT_EQ(line_order(32, 3, &pick), (std::vector<int>{1024, 32, 64}));
  EXPECT_EQ(pick, (LocalShape{32, 1}));
  // ... and with more, every neighbour of 32 is timed and the climb stops.
  EXPECT_EQ(line_order(32, 6, &pick), (std::vector<int>{1024, 32, 64, 16}));
  EXPECT_EQ(pick, (LocalShape{32, 1}));
  // At the large end: the bracket costs one timing.
  EXPECT_EQ(line_order(1024, 3, &pick), (std::vector<int>{1024, 32, 512}));
  EXPECT_EQ(pick, (LocalShape{1024, 1}));
  // Inside: from 1024 a step to 512 helps, twice its reach (128) misses and
  // the halved step finds 256.
  EXPECT_EQ(line_order(256, 5, &pick), (std::vector<int>{1024, 32, 512, 128, 256}));
  EXPECT_EQ(pick, (LocalShape{256, 1}));
  EXPECT_EQ(line_order(256, 3, &pick), (std::vector<int>{1024, 32, 512}));
  EXPECT_EQ(pick, (LocalShape{512, 1}));
}

// The bracket's far end is a whole warp the kernel can launch: with groups
// of at most 256, 256 and 32; on a range of fewer than 32 work-items, none.
TEST(LocalChoice, TheBracketsFarEndIsAWholeWarpTheKernelLaunches) {
  std::vector<int> order;
  const ShapeTimer timer = [&](const LocalShape& s) {
    order.push_back(s.x);
    return double(s.x);  // smaller is faster
  };
  tune_local(candidate_shapes(k1d, {}), k1d, h200(), 2, timer, {0, 0, 256});
  EXPECT_EQ(std::vector<int>(order.begin(), order.begin() + 2), (std::vector<int>{256, 32}));
  order.clear();
  const GlobalSize tiny{1, 16, 1};
  tune_local(candidate_shapes(tiny, {}), tiny, h200(), 3, timer);
  ASSERT_GE(order.size(), 3u);  // the climb alone: 16, 8, then twice the step
  EXPECT_EQ(std::vector<int>(order.begin(), order.begin() + 3), (std::vector<int>{16, 8, 2}));
}

TEST(LocalChoice, ABudgetOfOneMeasuresNothing) {
  int calls = 0;
  const std::vector<LocalShape> all = candidate_shapes(k1d, {});
  const TunerResult r = tune_local(all, k1d, h200(), 1, bowl({64, 1}, &calls));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(r.measured, 0);
  EXPECT_EQ(r.shape, model_ranking(all, k1d, h200()).front());
}

}  // namespace
}  // namespace gpucmp
