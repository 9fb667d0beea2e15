// Basic blocks, dominators and natural loops.
#include <gtest/gtest.h>

#include "ptx/cfg.h"
#include "ptx/parser.h"

namespace gpucmp::ptx {
namespace {

const std::string kFixtures = GPUCMP_PTX_FIXTURES;

// entry -> (L1 <-> L2 loop) -> exit, with a diamond inside the loop.
const char* const kDiamondLoop = R"(.version 9.0
.target sm_90
.entry k() {
	mov.u32 %r1, 0;
$L1:
	setp.eq.s32 %p1, %r1, 3;
	@%p1 bra $L3;
	add.s32 %r2, %r2, 1;
	bra.uni $L4;
$L3:
	add.s32 %r2, %r2, 2;
$L4:
	add.s32 %r1, %r1, 1;
	setp.lt.s32 %p2, %r1, 10;
	@%p2 bra $L1;
	ret;
})";

TEST(PtxCfg, BlocksAndEdges) {
  const Function f = parse(kDiamondLoop, "diamond.ptx").functions.at(0);
  // 0: mov | 1: $L1 .. @%p1 bra | 2: add, bra.uni | 3: $L3 | 4: $L4 .. @%p2 bra | 5: ret
  ASSERT_EQ(f.blocks.size(), 6u);
  EXPECT_EQ(f.blocks[0].successors, std::vector<int>{1});
  EXPECT_EQ(f.blocks[1].successors, (std::vector<int>{3, 2}));
  EXPECT_EQ(f.blocks[2].successors, std::vector<int>{4});
  EXPECT_EQ(f.blocks[3].successors, std::vector<int>{4});
  EXPECT_EQ(f.blocks[4].successors, (std::vector<int>{1, 5}));
  EXPECT_TRUE(f.blocks[5].successors.empty());
  EXPECT_EQ(f.blocks[1].predecessors, (std::vector<int>{0, 4}));
  EXPECT_EQ(f.blocks[4].labels, std::vector<std::string>{"$L4"});
  const auto owner = block_of_statements(f);
  EXPECT_EQ(owner.front(), 0);
  EXPECT_EQ(owner.back(), 5);
}

TEST(PtxCfg, Dominators) {
  const Function f = parse(kDiamondLoop, "diamond.ptx").functions.at(0);
  const auto idom = immediate_dominators(f);
  EXPECT_EQ(idom, (std::vector<int>{0, 0, 1, 1, 1, 4}));
  EXPECT_TRUE(dominates(idom, 1, 4));
  EXPECT_FALSE(dominates(idom, 2, 4));
  EXPECT_TRUE(dominates(idom, 0, 5));
}

TEST(PtxCfg, LoopWithDiamond) {
  const auto loops = find_loops(parse(kDiamondLoop, "diamond.ptx").functions.at(0));
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].header, 1);
  EXPECT_EQ(loops[0].blocks, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(loops[0].depth, 1);
  EXPECT_EQ(loops[0].parent, -1);
}

TEST(PtxCfg, NestedLoops) {
  const Module m = parse_file(kFixtures + "/handwritten/nested_loops.ptx");
  const auto loops = find_loops(m.functions.at(0));
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(loops[0].depth, 1);
  EXPECT_EQ(loops[1].depth, 2);
  EXPECT_EQ(loops[1].parent, 0);
  EXPECT_EQ(m.functions[0].blocks[loops[0].header].labels.at(0), "$L__BB0_1");
  EXPECT_EQ(m.functions[0].blocks[loops[1].header].labels.at(0), "$L__BB0_2");
  EXPECT_GT(loops[0].blocks.size(), loops[1].blocks.size());
}

TEST(PtxCfg, UnreachableBlocksHaveNoDominator) {
  const Function f = parse(R"(.version 9.0
.target sm_90
.entry k() {
	ret;
$dead:
	bra.uni $dead;
})",
                           "dead.ptx")
                         .functions.at(0);
  ASSERT_EQ(f.blocks.size(), 2u);
  EXPECT_EQ(immediate_dominators(f), (std::vector<int>{0, -1}));
  EXPECT_TRUE(find_loops(f).empty());
}

TEST(PtxCfg, EmptyBodyAndPrototype) {
  const Module m =
      parse(".version 9.0\n.target sm_90\n.entry k() { }\n.extern .func f();\n", "e.ptx");
  EXPECT_TRUE(m.functions[0].blocks.empty());
  EXPECT_TRUE(find_loops(m.functions[0]).empty());
  EXPECT_TRUE(immediate_dominators(m.functions[1]).empty());
}

}  // namespace
}  // namespace gpucmp::ptx
