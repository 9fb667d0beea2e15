// The reduce workload's host side (issue 17): its grid, the summation depth
// behind the float tolerance, and its validation, which must catch a wrong
// int32 sum bit for bit and a float sum outside the bound while passing the
// sums of other correct orders.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "workloads/agpu/reduce.h"

namespace gpucmp::reduce {
namespace {

float as_float(std::uint32_t w) {
  float x;
  std::memcpy(&x, &w, sizeof x);
  return x;
}
std::uint32_t bits(float x) {
  std::uint32_t w;
  std::memcpy(&w, &x, sizeof w);
  return w;
}

TEST(Reduce, GridIsEightBlocksPerUnitOrFewerForSmallArrays) {
  EXPECT_EQ(grid_blocks(132, std::size_t(1) << 28), 132 * kBlocksPerUnit);
  EXPECT_EQ(grid_blocks(132, std::size_t(4) * kBlock * 10), 10);  // one vector per thread
  EXPECT_EQ(grid_blocks(132, 256), 1);
  EXPECT_EQ(grid_blocks(0, 1 << 20), kBlocksPerUnit);  // unknown units: one unit's worth
}

TEST(Reduce, SummationDepthOfEachAlgorithm) {
  // tree: 2^28 words need 4 passes of 256 (2^20, 2^12, 2^4, 1), each 8 deep.
  EXPECT_EQ(summation_depth("tree", std::size_t(1) << 28, 1056), 32);
  EXPECT_EQ(summation_depth("tree", 256, 1), 8);
  // cascading: 2^26 vectors over 1056 x 256 threads: 249 each, + 3 (the four
  // lanes), + 8 (tree), + ceil(1056 / 256) = 5 (second launch), + 8.
  EXPECT_EQ(summation_depth("cascading", std::size_t(1) << 28, 1056), 249 + 3 + 8 + 5 + 8);
  // pipeline: 2^28 / 1056 words a block = 31 tiles of 256 x 33, + 33 + 8; the
  // second launch: 1 tile, + 33 + 8.
  EXPECT_EQ(summation_depth("pipeline", std::size_t(1) << 28, 1056), 31 + 33 + 8 + 1 + 33 + 8);
}

TEST(Reduce, Int32SumIsCheckedModulo2To32) {
  Problem p = make_problem(1024, Type::int32);
  std::uint32_t want = 0;
  for (std::uint32_t w : p.words) want += w;
  p.result = want;
  EXPECT_TRUE(validate(p, "tree").ok);
  p.result = want + 1;
  const Validation v = validate(p, "tree");
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("sum: got"), std::string::npos) << v.where;
}

TEST(Reduce, FloatSumWithinTheBoundOfAnyOrderPassesAndALostWordFails) {
  Problem p = make_problem(1 << 16, Type::f32);
  // The pairwise order in float: a correct order, 16 deep.
  std::vector<float> level;
  for (std::uint32_t w : p.words) level.push_back(as_float(w));
  while (level.size() > 1) {
    std::vector<float> next;
    for (std::size_t i = 0; i < level.size(); i += 2) next.push_back(level[i] + level[i + 1]);
    level = next;
  }
  p.grid_blocks = grid_blocks(132, p.n);
  p.result = bits(level[0]);
  EXPECT_TRUE(validate(p, "tree").ok) << validate(p, "tree").describe();
  // A word of magnitude 0.75 lost from the sum fails every algorithm's bound
  // (at most 84 deep here: 0.16 of the 2^15 sum of |x|).
  p.result = bits(level[0] - 0.75f);
  EXPECT_FALSE(validate(p, "tree").ok);
  EXPECT_FALSE(validate(p, "cascading").ok);
  EXPECT_FALSE(validate(p, "pipeline").ok);
}

TEST(Reduce, ProgramNamesAndTypes) {
  EXPECT_EQ(agpu::program_of("cascading", Type::int32), "cascading-int32");
  EXPECT_EQ(agpu::program_of("tree", Type::f32), "tree");
  EXPECT_EQ(to_string(Type::f32), "float");
}

}  // namespace
}  // namespace gpucmp::reduce
