// pass_cleanup (ptx/passes.h): exact effects on hand-written modules, and on the
// clang -O0 fixtures: no call or stack traffic left, re-parses, assembles, and
// memory/barrier/fma instructions are those of the kernel with callees expanded.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "ptx/cfg.h"
#include "ptx/files.h"
#include "ptx/parser.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

const std::string kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// The printed body statements of a function, tabs dropped, one per element.
std::vector<std::string> lines(const Function& f) {
  std::vector<std::string> out;
  for (const Statement& s : f.body) {
    std::string text = print(s);
    text.erase(std::remove(text.begin(), text.end(), '\t'), text.end());
    out.push_back(text);
  }
  return out;
}

bool has_line(const Function& f, const std::string& line) {
  const auto all = lines(f);
  return std::find(all.begin(), all.end(), line) != all.end();
}

bool any_note_contains(const PassReport& r, const std::string& text) {
  return std::any_of(r.notes.begin(), r.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

// ---- inlining -------------------------------------------------------------------

// A two-way callee with a result (a ret in the middle becomes a branch to the
// end) and a void callee that only synchronizes, as clang -O0 calls them.
const char* const kCalls = R"(.func (.param .b32 func_retval0) pick(.param .b32 pick_param_0);
.entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<4>; .reg .b64 %rd<2>;
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), pick, (param0);
	ld.param.b32 %r2, [retval0+0];
	} // callseq 0
	st.global.u32 [%rd1], %r2;
	st.global.u32 [%rd1+4], %r1;
	{ .param .b32 param0; st.param.b32 [param0+0], 1; call.uni sync_all, (param0); }
	ret;
}
.func (.param .b32 func_retval0) pick(.param .b32 pick_param_0)
{
	.reg .pred %p<2>; .reg .b32 %r<4>;
	ld.param.u32 %r1, [pick_param_0];
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L__BB1_2;
	mov.u32 %r2, 7;
	st.param.b32 [func_retval0+0], %r2;
	ret;
$L__BB1_2:
	add.s32 %r3, %r1, 1;
	st.param.b32 [func_retval0+0], %r3;
	ret;
}
.func sync_all(.param .b32 sync_all_param_0) { bar.sync 0; ret; }
)";

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

std::string depot_kernel(const std::string& accesses) {
  return kHeader +
         ".entry k(.param .u32 k_param_0)\n{\n\t.local .align 8 .b8 __local_depot0[24];\n"
         "\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<3>;\n"
         "\t.reg .b64 %rd<4>;\n\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n"
         "\tld.param.u32 %r1, [k_param_0];\n" +
         accesses + "\tret;\n}\n";
}

// An int 0 stored into a float variable (as clang -O0 writes `float s = 0`),
// a generic and a .local access to one slot, a 64-bit slot.
const char* const kSlots =
    "\tmov.u32 %r2, 0;\n\tst.u32 [%SP+0], %r2;\n\tst.u32 [%SP+4], %r1;\n"
    "\tld.f32 %f1, [%SP+0];\n\tld.local.u32 %r3, [%SPL+4];\n"
    "\tcvt.u64.u32 %rd1, %r3;\n\tst.u64 [%SP+8], %rd1;\n\tld.u64 %rd2, [%SP+8];\n"
    "\tst.global.f32 [%rd2], %f1;\n\tst.global.u32 [%rd2+4], %r3;\n";

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

// Copies within a block and across blocks; nothing for inline or promote-slots.
const char* const kCopies = R"(.entry k(.param .u64 k_param_0)
{
	.reg .pred %p<2>; .reg .b32 %r<9>; .reg .b64 %rd<2>;
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %r1;
	add.s32 %r1, %r1, 1;
	add.s32 %r3, %r2, 5;
	mov.u32 %r4, %r3;
	add.s32 %r5, %r4, %r4;
	mov.u32 %r6, %r3;
	setp.eq.s32 %p1, %r5, 0;
	@%p1 bra $L__BB0_2;
	add.s32 %r7, %r6, 1;
	add.s32 %r8, %r1, 2;
	mov.u32 %r1, %r8;
$L__BB0_2:
	st.global.u32 [%rd1], %r1;
	ret;
}
)";

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

// ---- cleanup's three passes, alone ------------------------------------------------

// One pass through run_passes(), its report checked for its name.
PassReport run_one(Module& m, const std::string& pass) {
  std::vector<PassReport> reports;
  run_passes(m, {pass}, false, &reports);
  EXPECT_EQ(reports.at(0).pass, pass);
  return reports.at(0);
}

int instructions(const Module& m) {
  int n = 0;
  for (const Function& f : m.functions) n += count_instructions(f);
  return n;
}

TEST(PtxPassCleanupSteps, InlineOnlyInlines) {
  Module m = parse(kHeader + kCalls, "calls.ptx");
  const PassReport r = run_one(m, "inline");
  EXPECT_EQ(r.changed, 2);
  EXPECT_TRUE(any_note_contains(r, "removed unused functions pick, sync_all"));
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_FALSE(has_line(m.functions[0], "call.uni (retval0), pick, (param0);")) << print(m);
  EXPECT_TRUE(has_line(m.functions[0], "bar.sync 0;")) << print(m);
  Module cleaned = parse(kHeader + kCalls, "calls.ptx");
  pass_cleanup(cleaned);
  EXPECT_EQ(instructions(m), instructions(cleaned) + 2);  // the copies copy-prop removes
  // No call, so nothing to do on the slots kernel.
  Module slots = parse(depot_kernel(kSlots), "slots.ptx");
  const std::string before = print(slots);
  EXPECT_EQ(run_one(slots, "inline").changed, 0);
  EXPECT_EQ(print(slots), before);
}

TEST(PtxPassCleanupSteps, PromoteSlotsOnlyPromotes) {
  Module m = parse(depot_kernel(kSlots), "slots.ptx");
  const PassReport r = run_one(m, "promote-slots");
  EXPECT_EQ(r.changed, 3);
  EXPECT_TRUE(
      any_note_contains(r, "3 stack slots of __local_depot0 promoted to registers, depot removed"));
  for (const std::string& line : lines(m.functions[0]))
    EXPECT_EQ(line.find("SP"), std::string::npos) << line;
  EXPECT_TRUE(has_line(m.functions[0], "mov.u32 %sl4, %r1;")) << print(m);  // copy-prop's work
  Module calls = parse(kHeader + kCalls, "calls.ptx");
  EXPECT_EQ(run_one(calls, "promote-slots").changed, 0);
  EXPECT_EQ(calls.functions.size(), 4u);  // pick's prototype, k, pick, sync_all: none removed
}

TEST(PtxPassCleanupSteps, CopyPropOnlyPropagates) {
  Module m = parse(kHeader + kCopies, "copies.ptx");
  EXPECT_EQ(run_one(m, "copy-prop").changed, 2);
  Module cleaned = parse(kHeader + kCopies, "copies.ptx");
  pass_cleanup(cleaned);
  EXPECT_EQ(print(m), print(cleaned));
  Module slots = parse(depot_kernel(kSlots), "slots.ptx");
  run_one(slots, "copy-prop");
  EXPECT_TRUE(has_line(slots.functions[0], "st.u32 [%SP+4], %r1;")) << print(slots);
}

// cleanup is inline, promote-slots and copy-prop in this order: the same text,
// `changed` their sum, and their notes after a summary of the three counts.
void expect_cleanup_is_its_steps(const Module& original) {
  Module whole = original, steps = original, direct = original;
  std::vector<PassReport> a, b;
  run_passes(whole, {"cleanup"}, false, &a);
  run_passes(steps, {"inline", "promote-slots", "copy-prop"}, false, &b);
  EXPECT_EQ(print(whole), print(steps));
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(a[0].changed, b[0].changed + b[1].changed + b[2].changed);
  std::vector<std::string> notes = {"calls inlined: " + std::to_string(b[0].changed) +
                                    ", stack slots promoted: " + std::to_string(b[1].changed) +
                                    ", copies propagated: " + std::to_string(b[2].changed)};
  for (const PassReport& r : b) notes.insert(notes.end(), r.notes.begin(), r.notes.end());
  EXPECT_EQ(a[0].notes, notes);
  const PassReport d = pass_cleanup(direct);
  EXPECT_EQ(print(direct), print(whole));
  EXPECT_EQ(d.changed, a[0].changed);
  EXPECT_EQ(d.notes, a[0].notes);
}

TEST(PtxPassCleanupSteps, CleanupIsTheThreeInOrder) {
  expect_cleanup_is_its_steps(parse(kHeader + kCalls, "calls.ptx"));
  expect_cleanup_is_its_steps(parse(depot_kernel(kSlots), "slots.ptx"));
  expect_cleanup_is_its_steps(parse(kHeader + kCopies, "copies.ptx"));
  const auto files = list_files(GPUCMP_PTX_FIXTURES);
  ASSERT_GE(files.size(), 10u);
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    expect_cleanup_is_its_steps(parse_file(path));
  }
}

// ---- the clang -O0 fixtures ---------------------------------------------------------

const std::string kO0 =
    std::string(GPUCMP_PTX_FIXTURES) + "/gpu/h200-driver580.159.04-nvcc13.0/opencl-O0/";

// The instructions cleanup must neither add nor lose, by kind.
std::string kind_of(const Instruction& ins) {
  for (const char* space : {"global", "shared", "const"})
    if ((ins.opcode == "ld" || ins.opcode == "st") && ins.has_modifier(space))
      return ins.opcode + "." + space;
  if (ins.opcode == "bar" && ins.has_modifier("sync")) return "bar.sync";
  return ins.opcode == "fma" || ins.opcode == "call" ? ins.opcode : "";
}

// Those counts for f with every call expanded into the callee's counts.
std::map<std::string, int> expanded_counts(const Module& m, const Function& f) {
  std::map<std::string, int> out;
  for (const Statement& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    const std::string kind = kind_of(s.instruction);
    if (kind != "call") {
      if (!kind.empty()) ++out[kind];
      continue;
    }
    for (const Operand& op : s.instruction.operands)
      for (const Function& callee : m.functions)  // the definition, not the prototype
        if (op.kind == Operand::Kind::Symbol && callee.name == op.name && callee.has_body)
          for (const auto& [k, n] : expanded_counts(m, callee)) out[k] += n;
  }
  return out;
}

bool is_stack_access(const Operand& op) {
  return op.kind == Operand::Kind::Memory && op.name.find("SP") != std::string::npos;
}

TEST(PtxPassCleanup, ClangO0Fixtures) {
  for (const char* name : {"matrixMul-tile16-cloptdisable.ptx", "cp-cloptdisable.ptx",
                           "cp-cloptdisableg.ptx", "mriq-cloptdisable.ptx"}) {
    SCOPED_TRACE(name);
    const Module original = parse_file(kO0 + name);
    Module m = original;
    const PassReport r = pass_cleanup(m);
    EXPECT_GT(r.changed, 0);
    const std::string text = print(m);
    EXPECT_EQ(print(parse(text, std::string(name) + " (cleaned)")), text);
    for (const Function& f : m.functions) {
      ASSERT_TRUE(f.is_entry) << f.name << " should have been inlined and removed";
      EXPECT_EQ(expanded_counts(m, f), expanded_counts(original, *original.find_function(f.name)));
      for (const Statement& s : f.body) {
        EXPECT_NE(s.instruction.opcode, "call") << print(s);
        EXPECT_FALSE(std::any_of(s.instruction.operands.begin(), s.instruction.operands.end(),
                                 is_stack_access))
            << f.name << ": " << print(s);  // mriq's sinf/cosf scratch arrays: through registers
        for (const Declarator& d : s.decl.declarators) {
          if (d.name.rfind("__local_depot", 0) != 0) continue;
          // Only an inlined callee's (sinf/cosf's scratch array), its address taken.
          EXPECT_TRUE(any_note_contains(r, d.name + " stays in memory: its address escapes"))
              << d.name;
        }
      }
    }
    std::string output;  // ptxas when found at configure time
    EXPECT_TRUE(ptxas_assembles(text, m.sm_target(), output)) << output;
  }
}

TEST(PtxPassCleanup, MatrixMulKeepsItsLoops) {
  Module m = parse_file(kO0 + "matrixMul-tile16-cloptdisable.ptx");
  pass_cleanup(m);
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& k = m.functions[0];
  EXPECT_EQ(find_loops(k).size(), 2u);  // the tile loop and the k loop, still rolled
  EXPECT_TRUE(has_line(k, "setp.lt.s32 %p3, %sl52, 16;"));         // k loop header
  EXPECT_TRUE(has_line(k, "fma.rn.f32 %sl44, %f4, %f5, %sl44;"));  // its one fma
  EXPECT_TRUE(has_line(k, "add.s32 %sl52, %sl52, 1;"));            // its latch
  EXPECT_TRUE(has_line(k, "add.s32 %sl48, %sl48, 16;"));           // the tile loop's latch
}

}  // namespace
}  // namespace gpucmp::ptx
