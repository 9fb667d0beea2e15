// pass_cleanup (ptx/passes.h): exact effects on hand-written modules: calls
// inlined (recursion refused), stack slots promoted to registers (the depot
// kept when slots mix sizes or its address escapes), copies propagated. Each
// of its three passes alone: ptx_pass_cleanup_steps_test.cpp; the clang -O0
// fixtures: ptx_pass_cleanup_o0_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptx/parser.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptx_cleanup_fixtures.h"

namespace gpucmp::ptx {
namespace {

using test::any_note_contains;
using test::depot_kernel;
using test::has_line;
using test::kCalls;
using test::kCopies;
using test::kHeader;
using test::kSlots;
using test::lines;

// ---- inlining -------------------------------------------------------------------

TEST(PtxPassCleanup, InlinesBranchingAndVoidCallees) {
  Module m = parse(kHeader + kCalls, "calls.ptx");
  const PassReport r = pass_cleanup(m);
  EXPECT_EQ(r.pass, "cleanup");
  ASSERT_EQ(m.functions.size(), 1u);  // pick (with its prototype) and sync_all removed
  EXPECT_EQ(r.changed, 4);            // 2 calls + 2 copies
  const std::vector<std::string> expected = {
      ".reg .b32 %r<4>;",
      ".reg .b64 %rd<2>;",
      ".reg .pred %il0_p<2>;",
      ".reg .b32 %il0_r<4>;",
      "ld.param.u64 %rd1, [k_param_0];",
      "mov.u32 %r1, %tid.x;",
      "mov.b32 %il0_r1, %r1;",  // ld.param of the argument (used in two blocks: kept)
      "setp.eq.s32 %il0_p1, %il0_r1, 0;",
      "@%il0_p1 bra $L__il0_BB1_2;",
      "mov.u32 %r2, 7;",  // st.param of the result, merged with its definition
      "bra.uni $L__il0_ret;",
      "$L__il0_BB1_2:",
      "add.s32 %r2, %il0_r1, 1;",
      "$L__il0_ret:",
      "st.global.u32 [%rd1], %r2;",
      "st.global.u32 [%rd1+4], %r1;",
      "bar.sync 0;",
      "ret;"};
  EXPECT_EQ(lines(m.functions[0]), expected) << print(m);
  const std::string text = print(m);
  EXPECT_EQ(print(parse(text, "again.ptx")), text);
}

TEST(PtxPassCleanup, RefusesRecursion) {
  Module m = parse(kHeader + R"(.func down(.param .b32 down_param_0)
{
	.reg .b32 %r<2>;
	ld.param.u32 %r1, [down_param_0];
	{ .param .b32 param0; st.param.b32 [param0+0], %r1; call.uni down, (param0); }
	ret;
}
.entry k() { { .param .b32 param0; st.param.b32 [param0+0], 3; call.uni down, (param0); } ret; }
)",
                   "recursive.ptx");
  const PassReport r = pass_cleanup(m);
  EXPECT_EQ(r.changed, 0);
  EXPECT_TRUE(any_note_contains(r, "down is recursive")) << r.notes.front();
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_TRUE(has_line(m.functions[1], "call.uni down, (param0);"));
}

// ---- stack slots --------------------------------------------------------------------

TEST(PtxPassCleanup, PromotesSlotsAndRemovesTheDepot) {
  Module m = parse(depot_kernel(kSlots), "slots.ptx");
  const PassReport r = pass_cleanup(m);
  // Slots 0, 4 and 8; then 5 copies: slots 4 and 8 are written once, so their
  // registers go too, and %f1 reads %sl0 itself.
  EXPECT_EQ(r.changed, 3 + 5);
  const std::vector<std::string> expected = {
      ".reg .b32 %r<5>;",
      ".reg .f32 %f<3>;",
      ".reg .b64 %rd<4>;",
      ".reg .f32 %sl0;",
      "ld.param.u32 %r1, [k_param_0];",
      "mov.u32 %r2, 0;",
      "mov.b32 %sl0, %r2;",  // int bits into the float variable
      "cvt.u64.u32 %rd1, %r1;",
      "st.global.f32 [%rd1], %sl0;",
      "st.global.u32 [%rd1+4], %r1;",
      "ret;"};
  EXPECT_EQ(lines(m.functions[0]), expected) << print(m);
  EXPECT_TRUE(
      any_note_contains(r, "3 stack slots of __local_depot0 promoted to registers, depot removed"));
}

TEST(PtxPassCleanup, KeepsSlotsOfMixedSizes) {
  Module m = parse(
      depot_kernel("\tst.u32 [%SP+0], %r1;\n\tld.u64 %rd1, [%SP+0];\n\tst.u32 [%SP+16], %r1;\n"
                   "\tld.u32 %r2, [%SP+16];\n\tst.global.u32 [%rd1], %r2;\n"),
      "mixed.ptx");
  const PassReport r = pass_cleanup(m);
  EXPECT_EQ(r.changed, 1 + 2);  // slot 16, and its two copies
  EXPECT_TRUE(
      any_note_contains(r, "__local_depot0 slot 0 stays in memory: accessed with different sizes"));
  for (const char* kept :
       {".local .align 8 .b8 __local_depot0[24];", "cvta.local.u64 %SP, %SPL;",
        "st.u32 [%SP+0], %r1;", "ld.u64 %rd1, [%SP+0];", "st.global.u32 [%rd1], %r1;"})
    EXPECT_TRUE(has_line(m.functions[0], kept)) << kept << " in\n" << print(m);
}

TEST(PtxPassCleanup, KeepsTheDepotWhenItsAddressEscapes) {
  Module m =
      parse(depot_kernel("\tst.u32 [%SP+0], %r1;\n\tadd.u64 %rd1, %SP, 4;\n\tst.u32 [%rd1], %r1;\n"
                         "\tld.u32 %r2, [%SP+0];\n\tst.global.u32 [%rd1], %r2;\n"),
            "escape.ptx");
  const PassReport r = pass_cleanup(m);
  EXPECT_EQ(r.changed, 0);
  EXPECT_TRUE(any_note_contains(
      r, "depot0 stays in memory: its address escapes in 'add.u64 %rd1, %SP, 4;'"));
  EXPECT_TRUE(has_line(m.functions[0], "ld.u32 %r2, [%SP+0];"));
}

// ---- copies -------------------------------------------------------------------------

TEST(PtxPassCleanup, PropagatesCopiesInsideBlocksOnly) {
  Module m = parse(kHeader + kCopies, "copies.ptx");
  const PassReport r = pass_cleanup(m);
  EXPECT_EQ(r.changed, 2);
  const std::vector<std::string> expected = {
      ".reg .pred %p<2>;",
      ".reg .b32 %r<9>;",
      ".reg .b64 %rd<2>;",
      "ld.param.u64 %rd1, [k_param_0];",
      "mov.u32 %r1, %tid.x;",
      "mov.u32 %r2, %r1;",  // %r1 redefined before %r2 is read: kept
      "add.s32 %r1, %r1, 1;",
      "add.s32 %r3, %r2, 5;",
      "add.s32 %r5, %r3, %r3;",  // forward
      "mov.u32 %r6, %r3;",       // read in the next block: kept
      "setp.eq.s32 %p1, %r5, 0;",
      "@%p1 bra $L__BB0_2;",
      "add.s32 %r7, %r6, 1;",
      "add.s32 %r1, %r1, 2;",  // backward: the single use of %r8 was the copy into %r1
      "$L__BB0_2:",
      "st.global.u32 [%rd1], %r1;",
      "ret;"};
  EXPECT_EQ(lines(m.functions[0]), expected) << print(m);
}

}  // namespace
}  // namespace gpucmp::ptx
