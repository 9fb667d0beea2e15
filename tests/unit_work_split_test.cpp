// Unit tests of splitting work between devices (harness/work_split.h): the
// study's k model against the splits it reported, the proportional rules,
// and the blocks of rows each device gets. No device needed.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "errors.h"
#include "work_split.h"

namespace gpucmp {
namespace {

TEST(WorkSplit, StudyKModelGivesTheStudysBestSplitsOnATwoToThreePair) {
  // The study's pair had PEs in the ratio 2:3; its best measured splits were
  // 1:9 (heavy), 3:7 (medium) and 5:5 (light): 0.4 x k of the work.
  const std::vector<double> pe{2, 3};
  const auto small_share = [&](double ops) {
    return split_fractions(SplitRule::study_k, pe, {}, ops)[0];
  };
  EXPECT_NEAR(small_share(1e12), 0.1, 1e-12);  // heavy, > 8e11
  EXPECT_NEAR(small_share(1e10), 0.3, 1e-12);  // medium
  EXPECT_NEAR(small_share(1e8), 0.5, 1e-12);   // light, < 4e8
  // Order does not matter: the smaller device is found.
  const std::vector<double> swapped = split_fractions(SplitRule::study_k, {3, 2}, {}, 1e12);
  EXPECT_NEAR(swapped[1], 0.1, 1e-12);
  EXPECT_NEAR(swapped[0], 0.9, 1e-12);
}

TEST(WorkSplit, StudyKModelSplitsEquallyWhenPesAreCloserThanTwoToThree) {
  EXPECT_EQ(split_fractions(SplitRule::study_k, {132, 132}, {}, 1e12),
            (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(split_fractions(SplitRule::study_k, {100, 140}, {}, 1e12),
            (std::vector<double>{0.5, 0.5}));
  EXPECT_NE(split_fractions(SplitRule::study_k, {100, 160}, {}, 1e12)[0], 0.5);
}

TEST(WorkSplit, ProportionalRules) {
  const std::vector<double> pe = split_fractions(SplitRule::pe_ratio, {16896, 128}, {}, 0);
  EXPECT_NEAR(pe[0], 16896.0 / 17024.0, 1e-12);
  const std::vector<double> cal = split_fractions(SplitRule::calibrated, {}, {3.0, 1.0}, 0);
  EXPECT_EQ(cal, (std::vector<double>{0.75, 0.25}));
  EXPECT_EQ(split_fractions(SplitRule::equal, {1, 2, 3}, {}, 0),
            (std::vector<double>(3, 1.0 / 3.0)));
}

TEST(WorkSplit, BadInputsAreRefused) {
  EXPECT_THROW(split_fractions(SplitRule::pe_ratio, {}, {}, 0), std::invalid_argument);
  EXPECT_THROW(split_fractions(SplitRule::pe_ratio, {1, 0}, {}, 0), std::invalid_argument);
  EXPECT_THROW(split_fractions(SplitRule::calibrated, {}, {1, -1}, 0), std::invalid_argument);
  EXPECT_THROW(split_fractions(SplitRule::study_k, {1, 2, 3}, {}, 0), std::invalid_argument);
  EXPECT_THROW(split_units(1000, {0.5, 0.5}, 64), std::invalid_argument);
  try {
    parse_split_rule("fastest", "--split");
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--split fastest: not a split rule"), std::string::npos);
  }
  EXPECT_EQ(parse_split_rule("study-k", "--split"), SplitRule::study_k);
}

TEST(WorkSplit, BlocksAreWholeGranulesCoveringEveryRowOnce) {
  // 1:9 of 1024 rows in work-groups of 16 rows: 6.4 granules round to 6.
  std::vector<UnitBlock> b = split_units(1024, {0.1, 0.9}, 16);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].first, 0);
  EXPECT_EQ(b[0].count, 96);
  EXPECT_EQ(b[1].first, 96);
  EXPECT_EQ(b[1].count, 928);
  // The paper's two-GPU advection split: mid = 64 floor(ny / 128).
  b = split_units(4096, {0.5, 0.5}, 64);
  EXPECT_EQ(b[0].count, 64 * (4096 / 128));
  // Three devices with fractions whose own roundings would add up to more
  // than the whole: the running sum keeps it exact.
  b = split_units(64, {0.34, 0.33, 0.33}, 8);
  long long total = 0, next = 0;
  for (const UnitBlock& u : b) {
    EXPECT_EQ(u.first, next);
    EXPECT_EQ(u.count % 8, 0);
    next += u.count;
    total += u.count;
  }
  EXPECT_EQ(total, 64);
  // A fraction too small for one granule gets an empty block.
  b = split_units(64, {0.01, 0.99}, 16);
  EXPECT_EQ(b[0].count, 0);
  EXPECT_EQ(b[1].count, 64);
}

// ---- balanced_fractions: the calibrated split's choice ----

TEST(BalancedFractions, NoFixedCostIsTheSplitByThroughput) {
  const std::vector<double> f = balanced_fractions({{0, 1.0}, {0, 3.0}});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_DOUBLE_EQ(f[0], 0.75);
  EXPECT_DOUBLE_EQ(f[1], 0.25);
}

TEST(BalancedFractions, FixedCostsShiftWorkToTheDeviceWithout) {
  // T = (1 + 0.5 / 1) / (1 / 1 + 1 / 1) = 0.75: f0 = 0.75, f1 = 0.25.
  const std::vector<double> f = balanced_fractions({{0, 1.0}, {0.5, 1.0}});
  EXPECT_DOUBLE_EQ(f[0], 0.75);
  EXPECT_DOUBLE_EQ(f[1], 0.25);
}

TEST(BalancedFractions, ADeviceWhoseFixedCostExceedsTheWholeJobElsewhereIsIdle) {
  // Device 0 does everything in 1 s; device 1 needs 2 s just to start.
  EXPECT_EQ(balanced_fractions({{0, 1.0}, {2.0, 0.1}}), (std::vector<double>{1.0, 0.0}));
  // Three devices, the third too costly to start: the first two share.
  const std::vector<double> f = balanced_fractions({{0, 1.0}, {0, 1.0}, {5.0, 1.0}});
  EXPECT_DOUBLE_EQ(f[0], 0.5);
  EXPECT_DOUBLE_EQ(f[1], 0.5);
  EXPECT_DOUBLE_EQ(f[2], 0.0);
}

TEST(BalancedFractions, RefusesNoDevicesAndNonPositiveCosts) {
  EXPECT_THROW(balanced_fractions({}), std::invalid_argument);
  EXPECT_THROW(balanced_fractions({{0, 0.0}}), std::invalid_argument);
  EXPECT_THROW(balanced_fractions({{-1, 1.0}}), std::invalid_argument);
}

}  // namespace
}  // namespace gpucmp
