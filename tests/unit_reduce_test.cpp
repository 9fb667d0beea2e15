// The reduce workload's host side: its grid, the summation depth
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

// OpenCL's pipeline-regcap40 is pipeline built with other options: its
// algorithm's launches, bound and product.
TEST(Reduce, ABuildVariantIsCheckedAsItsAlgorithm) {
  EXPECT_EQ(algorithm("pipeline-regcap40"), "pipeline");
  EXPECT_EQ(algorithm("cascading"), "cascading");
  EXPECT_EQ(algorithm("cub"), "cub");
  const std::size_t n = std::size_t(1) << 28;
  EXPECT_EQ(summation_depth("pipeline-regcap40", n, 1056), summation_depth("pipeline", n, 1056));
  EXPECT_EQ(launch_kernels("pipeline-regcap40", n), 2);
  Problem p = make_problem(1 << 12, Type::affine16);
  p.grid_blocks = 4;
  EXPECT_EQ(affine_reference(p, "pipeline-regcap40"), affine_reference(p, "pipeline"));
  p.result = affine_reference(p, "pipeline");
  EXPECT_TRUE(validate(p, "pipeline-regcap40").ok);
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

TEST(Reduce, Affine16IsAssociativeNotCommutativeWithItsIdentity) {
  const std::vector<std::uint32_t> words = agpu::make_words(std::size_t(3) * 256, Type::affine16);
  int commuting = 0;
  for (std::size_t i = 0; i + 2 < words.size(); i += 3) {
    const std::uint32_t x = words[i], y = words[i + 1], z = words[i + 2];
    EXPECT_EQ(x >> 16 & 1U, 1U) << "a is odd";
    EXPECT_EQ(agpu::affine_product(agpu::affine_product(x, y), z),
              agpu::affine_product(x, agpu::affine_product(y, z)));
    EXPECT_EQ(agpu::affine_product(agpu::kAffineIdentity, x), x);
    EXPECT_EQ(agpu::affine_product(x, agpu::kAffineIdentity), x);
    commuting += agpu::affine_product(x, y) == agpu::affine_product(y, x);
  }
  EXPECT_LT(commuting, 3);  // of 256 random pairs
  // [[3, 5], [0, 1]] x [[7, 11], [0, 1]] = [[21, 3 x 11 + 5], [0, 1]].
  EXPECT_EQ(agpu::affine_product(3U << 16 | 5U, 7U << 16 | 11U), 21U << 16 | 38U);
}

TEST(Reduce, CascadingOrderIsTheWordsOrderOnlyWithOneVectorPerThread) {
  // One block, 256 threads, one 4-word vector each: the lanes combine in
  // order, then the block's tree keeps it: the ordered product.
  const std::vector<std::uint32_t> one = agpu::make_words(std::size_t(4) * kBlock, Type::affine16);
  std::uint32_t ordered = agpu::kAffineIdentity;
  for (std::uint32_t w : one) ordered = agpu::affine_product(ordered, w);
  EXPECT_EQ(cascading_product(one, 1), ordered);
  // Two vectors per thread: thread t takes vectors t and t + 256, lane by
  // lane, which is not the words' order.
  Problem p = make_problem(std::size_t(8) * kBlock, Type::affine16);
  p.grid_blocks = 1;
  EXPECT_NE(affine_reference(p, "cascading"), affine_reference(p, "tree"));
  EXPECT_EQ(affine_reference(p, "tree"), affine_reference(p, "pipeline"));
}

TEST(Reduce, CascadingTakesTheTailWordsAfterThreadVectors) {
  // n = 6: one vector (thread 0) and two tail words, words 4 and 5, combined
  // after thread 0's lane 0 and as thread 1's lane 0. Thread 0 gives
  // (w0 w4) w1 w2 w3, thread 1 w5; the block's tree: thread 0's, then 1's.
  const std::vector<std::uint32_t> w = agpu::make_words(6, Type::affine16);
  const auto x = [](std::uint32_t l, std::uint32_t r) { return agpu::affine_product(l, r); };
  const std::uint32_t thread0 = x(x(x(w[0], w[4]), w[1]), x(w[2], w[3]));
  EXPECT_EQ(cascading_product(w, 1), x(thread0, w[5]));
  // One word: the word itself.
  const std::vector<std::uint32_t> one = agpu::make_words(1, Type::affine16);
  EXPECT_EQ(cascading_product(one, 1), one[0]);
}

TEST(Reduce, Affine16IsCheckedAgainstTheAlgorithmsOwnOrder) {
  Problem p = make_problem(1 << 16, Type::affine16);
  p.grid_blocks = 4;  // 16 vectors per thread (with one, cascading keeps the order)
  p.result = affine_reference(p, "tree");
  EXPECT_TRUE(validate(p, "tree").ok);
  EXPECT_TRUE(validate(p, "pipeline").ok);
  const Validation wrong = validate(p, "cascading");  // the ordered product is not cascading's
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.where.find("in cascading's order"), std::string::npos) << wrong.where;
  p.result = affine_reference(p, "cascading");
  EXPECT_TRUE(validate(p, "cascading").ok);
}

TEST(Reduce, ProgramNamesAndTypes) {
  EXPECT_EQ(agpu::program_of("cascading", Type::int32), "cascading-int32");
  EXPECT_EQ(agpu::program_of("tree", Type::f32), "tree");
  EXPECT_EQ(to_string(Type::f32), "float");
  EXPECT_EQ(agpu::program_of("pipeline", Type::affine16), "pipeline-affine16");
  EXPECT_EQ(agpu::parse_type("affine16", "--reduce-type"), Type::affine16);
}

}  // namespace
}  // namespace gpucmp::reduce
