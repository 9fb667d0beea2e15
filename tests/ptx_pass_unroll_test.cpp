// pass_unroll (ptx/passes.h): exact effects on small hand-written kernels (trip counts, full and
// partial unrolling, refusals with their reasons, labels and registers of the copies); on every
// fixture the output still prints, re-parses and assembles (when ptxas was found).
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

// A kernel k(out, n) with the usual registers declared; `body` (PTX statements, written on one
// line) follows `ld.param` of both parameters into %rd1 and %r9 and a zero in %f1.
Module kernel(const std::string& body, const std::string& extra_decls = "") {
  const std::string head =
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0, "
      ".param .u32 "
      "k_param_1) {\n.reg .pred %p<8>; .reg .f32 %f<8>; .reg .b32 %r<10>; .reg .b64 %rd<60>;\n" +
      extra_decls +
      "\nld.param.u64 %rd1, [k_param_0]; ld.param.u32 %r9, [k_param_1]; mov.f32 %f1, 0f00000000;\n";
  return parse(head + body + "\nret;\n}\n", "kernel.ptx");
}

int count(const Function& f, const std::string& full_opcode) {
  return static_cast<int>(std::count_if(f.body.begin(), f.body.end(), [&](const Statement& s) {
    return s.kind == Statement::Kind::Instruction && s.instruction.full_opcode() == full_opcode;
  }));
}

// Prints, re-parses to the same text and assembles.
void expect_valid(const Module& m) {
  const std::string text = print(m);
  EXPECT_EQ(print(parse(text, "again.ptx")), text);
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, "sm_90", output)) << output << text;
}

PassReport unroll(Module& m, int factor = 4) {
  PassReport r = pass_unroll(m.functions.at(0), factor);
  expect_valid(m);
  return r;
}

// The statements from label `from` on (or all), tabs dropped, joined by spaces: the
// instructions but branches, or (`control`) only labels and branches.
std::string listing(const Function& f, const std::string& from, bool control = false) {
  std::string out;
  bool on = from.empty();
  for (const Statement& s : f.body) {
    on = on || (s.kind == Statement::Kind::Label && s.label == from);
    const bool is_instruction = s.kind == Statement::Kind::Instruction;
    const bool is_control =
        s.kind == Statement::Kind::Label || (is_instruction && s.instruction.opcode == "bra");
    if (!on || (control ? !is_control : !is_instruction || is_control)) continue;
    std::string text = print(s);
    text.erase(std::remove(text.begin(), text.end(), '\t'), text.end());
    out += (out.empty() ? "" : " ") + text;
  }
  return out;
}

// The constant each cvt.rn.f32.s32 reads (in a copy: i's value there), in order.
std::string cvt_inputs(const Function& f) {
  std::map<std::string, std::string> constant;  // register -> immediate
  std::string out;
  for (const Statement& s : f.body) {
    const Instruction& i = s.instruction;
    if (i.full_opcode() == "mov.b32") constant[i.operands[0].name] = i.operands[1].value;
    if (i.full_opcode() == "cvt.rn.f32.s32")
      out += (out.empty() ? "" : " ") + constant[i.operands[1].name];
  }
  return out;
}

// Header-tested, as clang -O0 lays loops out after cleanup: for (i = 0; i < 4; ++i) sum += i.
const char* const kHeaderTested =
    "mov.u32 %r1, 0; bra.uni $L__BB0_1;\n"
    "$L__BB0_1: setp.lt.s32 %p1, %r1, 4; not.pred %p2, %p1; @%p2 bra $L__BB0_3; bra.uni "
    "$L__BB0_2;\n"
    "$L__BB0_2: cvt.rn.f32.s32 %f2, %r1; add.f32 %f1, %f1, %f2;\n"
    "add.s32 %r2, %r1, 1; mov.u32 %r1, %r2; bra.uni $L__BB0_1;\n"
    "$L__BB0_3: st.global.f32 [%rd1], %f1; st.global.u32 [%rd1+4], %r1;";

TEST(PtxPassUnroll, HeaderTestedFullyUnrolledWithConstants) {
  Module m = kernel(kHeaderTested);
  const PassReport r = unroll(m);
  const Function& f = m.functions[0];
  EXPECT_EQ(r.pass + " " + std::to_string(r.changed), "unroll 1");
  EXPECT_EQ(r.notes,
            std::vector<std::string>{"k: loop at $L__BB0_1: trip count 4, fully unrolled"});
  EXPECT_TRUE(find_loops(f).empty()) << print(f);
  // The body 4 times, i a constant and registers of its own in each; i's final value (stored
  // after).
  EXPECT_EQ(listing(f, "$L__BB0_1"),
            "mov.b32 %ur0, 0; cvt.rn.f32.s32 %f2, %ur0; add.f32 %f1, %f1, %f2; "
            "mov.b32 %ur1, 1; cvt.rn.f32.s32 %uf0, %ur1; add.f32 %f1, %f1, %uf0; "
            "mov.b32 %ur2, 2; cvt.rn.f32.s32 %uf1, %ur2; add.f32 %f1, %f1, %uf1; "
            "mov.b32 %ur3, 3; cvt.rn.f32.s32 %uf2, %ur3; add.f32 %f1, %f1, %uf2; "
            "mov.b32 %r1, 4; st.global.f32 [%rd1], %f1; st.global.u32 [%rd1+4], %r1; ret;");
  EXPECT_EQ(count(f, "bra.uni"),
            1);  // the preheader's, into the first copy; the exit falls through
}

// Bottom-tested (as optimizers rotate loops): signed and unsigned compares, the bound on either
// side, steps up and down, a start copied through a register, and the reasons for refusing.
TEST(PtxPassUnroll, TripCountsOfEachShape) {
  struct Case {
    std::string init, update, test;
    std::string expected;  // a full unroll: i in each copy, as its cvt reads it; else the note
    std::string branch = "@%p1 bra";
  };
  const std::string i0 = "mov.u32 %r1, 0;", inc = "add.s32 %r1, %r1, 1;";
  const std::vector<Case> cases = {
      {i0, "add.s32 %r1, %r1, 2;", "setp.lt.u32 %p1, %r1, 16;", "0 2 4 6 8 10 12 14"},
      {i0, inc, "setp.ne.s32 %p1, %r1, 5;", "0 1 2 3 4"},
      {"mov.u32 %r1, 10;", "add.s32 %r1, %r1, -1;", "setp.gt.s32 %p1, %r1, 0;",
       "10 9 8 7 6 5 4 3 2 1"},
      {"mov.u32 %r1, 10;", "sub.s32 %r1, %r1, 3;", "setp.ge.s32 %p1, %r1, 0;", "10 7 4 1"},
      {"mov.u32 %r1, 1;", inc, "setp.le.s32 %p1, %r1, 7;", "1 2 3 4 5 6 7"},
      {i0, inc, "setp.gt.s32 %p1, 9, %r1;", "0 1 2 3 4 5 6 7 8"},
      {i0, "add.s32 %r1, 1, %r1;", "setp.ge.s32 %p1, %r1, 6;", "0 1 2 3 4 5", "@!%p1 bra"},
      {"mov.u32 %r1, -3;", inc, "setp.lt.u32 %p1, %r1, 5;", "-3"},  // -2 is 4294967294 unsigned
      {"mov.u32 %r4, 7; mov.u32 %r3, 2; mov.u32 %r1, %r3;", inc, "setp.lt.s32 %p1, %r1, %r4;",
       "2 3 4 5 6"},
      {i0, inc, "setp.lt.s32 %p1, %r1, 64;", "trip count 64, unrolled by 4"},
      {i0, inc, "setp.lt.s32 %p1, %r1, 66;", "trip count 66 is not divisible by 4; not unrolled"},
      {i0, inc, "setp.lt.s32 %p1, %r1, %r9;", "bound %r9 is not a constant; not unrolled"},
      {"mov.u32 %r1, %r9;", inc, "setp.lt.s32 %p1, %r1, 8;",
       "the start value of %r1 is not a constant; not unrolled"},
      {i0, ".pragma \"nounroll\"; " + inc, "setp.lt.s32 %p1, %r1, 8;",
       "it is marked .pragma \"nounroll\"; not unrolled"},
      {i0, "shl.b32 %r1, %r1, 1;", "setp.lt.s32 %p1, %r1, 8;",
       "its exit test reads %r1, which is not an induction register (no add/sub of a constant); "
       "not unrolled"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.update + " " + c.test);
    Module m = kernel(c.init + "\n$L__BB0_1: cvt.rn.f32.s32 %f2, %r1; add.f32 %f1, %f1, %f2;\n" +
                      c.update + " " + c.test + " " + c.branch +
                      " $L__BB0_1;\nst.global.f32 [%rd1], %f1;");
    const std::string before = print(m);
    const PassReport r = unroll(m);
    EXPECT_EQ(r.changed == 0 ? print(m) : before, before);
    const bool full = c.expected.find_first_not_of("-0123456789 ") == std::string::npos;
    const auto trip = std::count(c.expected.begin(), c.expected.end(), ' ') + 1;
    const std::string note =
        full ? "trip count " + std::to_string(trip) + ", fully unrolled" : c.expected;
    EXPECT_EQ(r.notes, std::vector<std::string>{"k: loop at $L__BB0_1: " + note});
    EXPECT_EQ(r.changed, full || c.expected.find("unrolled by") != std::string::npos ? 1 : 0);
    if (full) {
      EXPECT_TRUE(find_loops(m.functions[0]).empty());
      EXPECT_EQ(count(m.functions[0], "add.f32"), trip);
      EXPECT_EQ(cvt_inputs(m.functions[0]), c.expected);
    }
  }
}

TEST(PtxPassUnroll, ByFactorKeepsOneTestPerFourCopies) {
  Module m = kernel(
      "mov.u64 %rd2, %rd1; mov.u32 %r1, 0;\n$L__BB0_1: ld.global.f32 %f2, [%rd2]; add.f32 %f1, "
      "%f1, %f2;\n"
      "add.s64 %rd2, %rd2, 4; add.s32 %r1, %r1, 1; setp.lt.s32 %p1, %r1, 64; @%p1 bra $L__BB0_1;\n"
      "st.global.f32 [%rd1], %f1;");
  const PassReport r = unroll(m);
  const Function& f = m.functions[0];
  EXPECT_EQ(r.notes,
            std::vector<std::string>{"k: loop at $L__BB0_1: trip count 64, unrolled by 4"});
  EXPECT_EQ(listing(f, "$L__BB0_1", true), "$L__BB0_1: @%up0 bra $L__BB0_1;");  // the loop stays
  // Each copy one whole iteration with its own loaded register; the test only in the last.
  EXPECT_EQ(listing(f, "$L__BB0_1"),
            "ld.global.f32 %f2, [%rd2]; add.f32 %f1, %f1, %f2; add.s64 %rd2, %rd2, 4; add.s32 %r1, "
            "%r1, 1; "
            "ld.global.f32 %uf0, [%rd2]; add.f32 %f1, %f1, %uf0; add.s64 %rd2, %rd2, 4; add.s32 "
            "%r1, %r1, 1; "
            "ld.global.f32 %uf1, [%rd2]; add.f32 %f1, %f1, %uf1; add.s64 %rd2, %rd2, 4; add.s32 "
            "%r1, %r1, 1; "
            "ld.global.f32 %uf2, [%rd2]; add.f32 %f1, %f1, %uf2; add.s64 %rd2, %rd2, 4; add.s32 "
            "%r1, %r1, 1; "
            "setp.lt.s32 %up0, %r1, 64; st.global.f32 [%rd1], %f1; ret;");
  // Header-tested: the test stays in the first copy.
  std::string body = kHeaderTested;
  Module header_tested = kernel(body.replace(body.find("%r1, 4;"), 7, "%r1, 40;"));
  const Function& g = header_tested.functions[0];
  EXPECT_EQ(unroll(header_tested).notes.at(0),
            "k: loop at $L__BB0_1: trip count 40, unrolled by 4");
  EXPECT_EQ(listing(g, "$L__BB0_1", true),
            "$L__BB0_1: @%p2 bra $L__BB0_3; bra.uni $L__BB0_1; $L__BB0_3:");
  EXPECT_EQ(count(g, "add.f32"), 4);
}

TEST(PtxPassUnroll, IfElseInBodyGetsItsOwnLabels) {
  Module m = kernel(
      "mov.u32 %r1, 0;\n$L__BB0_1: setp.ge.s32 %p1, %r1, 4; @%p1 bra $L__BB0_5;\n"
      "and.b32 %r3, %r1, 1; setp.eq.s32 %p3, %r3, 0; @%p3 bra $L__BB0_3;\n"
      "add.f32 %f1, %f1, 0f3F800000; bra.uni $L__BB0_4;\n$L__BB0_3: sub.f32 %f1, %f1, 0f40000000;\n"
      "$L__BB0_4: add.s32 %r1, %r1, 1; bra.uni $L__BB0_1;\n$L__BB0_5: st.global.f32 [%rd1], %f1;");
  const PassReport r = unroll(m);
  const Function& f = m.functions[0];
  EXPECT_EQ(r.notes.at(0), "k: loop at $L__BB0_1: trip count 4, fully unrolled");
  EXPECT_EQ(count(f, "add.f32") + count(f, "sub.f32"), 8);
  // Each copy branches (forwards) to its own labels, with its own predicate.
  EXPECT_EQ(listing(f, "", true),
            "@%p3 bra $L__BB0_3; bra.uni $L__BB0_4; $L__BB0_3: $L__BB0_4: "
            "@%up0 bra $L__BB0_3_u1; bra.uni $L__BB0_4_u1; $L__BB0_3_u1: $L__BB0_4_u1: "
            "@%up1 bra $L__BB0_3_u2; bra.uni $L__BB0_4_u2; $L__BB0_3_u2: $L__BB0_4_u2: "
            "@%up2 bra $L__BB0_3_u3; bra.uni $L__BB0_4_u3; $L__BB0_3_u3: $L__BB0_4_u3: $L__BB0_5:");
}

TEST(PtxPassUnroll, InnerLoopFirstThenOuterOrNote) {
  const std::string inner =
      "mov.u32 %r2, 0;\n$L__BB0_2: add.f32 %f1, %f1, 0f3F800000; add.s32 %r2, %r2, 1; ";
  const std::string outer = "\nadd.s32 %r1, %r1, 1; setp.lt.s32 %p1, %r1, 2; @%p1 bra $L__BB0_1;";
  Module both = kernel("mov.u32 %r1, 0;\n$L__BB0_1: " + inner +
                       "setp.lt.s32 %p2, %r2, 3; @%p2 bra $L__BB0_2;" + outer);
  const PassReport r = unroll(both);
  EXPECT_EQ(r.changed, 2);
  EXPECT_EQ(r.notes,
            (std::vector<std::string>{"k: loop at $L__BB0_2: trip count 3, fully unrolled",
                                      "k: loop at $L__BB0_1: trip count 2, fully unrolled"}));
  EXPECT_EQ(count(both.functions[0], "add.f32"), 6);
  EXPECT_TRUE(find_loops(both.functions[0]).empty());

  Module runtime = kernel("mov.u32 %r1, 0;\n$L__BB0_1: " + inner +
                          "setp.lt.s32 %p2, %r2, %r9; @%p2 bra $L__BB0_2;" + outer);
  const PassReport refused = unroll(runtime);
  EXPECT_EQ(refused.changed, 0);
  EXPECT_EQ(refused.notes, (std::vector<std::string>{
                               "k: loop at $L__BB0_2: bound %r9 is not a constant; not unrolled",
                               "k: loop at $L__BB0_1: it contains an inner loop; not unrolled"}));
}

// matrixMul's k loop as cleanup leaves clang -O0 code: stack slots %sl52 (k), %sl44 (sum) in
// registers.
TEST(PtxPassUnroll, MatrixMulInnerLoopAfterCleanup) {
  Module m = kernel(
      "mov.u32 %r1, %tid.y; mov.u32 %r2, %tid.x; mov.f32 %sl44, 0f00000000; mov.u32 %r3, 0;\n"
      "mov.u32 %sl52, %r3; bra.uni $L__BB0_3;\n"
      "$L__BB0_3: setp.lt.s32 %p3, %sl52, 16; not.pred %p4, %p3; @%p4 bra $L__BB0_6; bra.uni "
      "$L__BB0_4;\n"
      "$L__BB0_4: cvt.s64.s32 %rd40, %r1; shl.b64 %rd41, %rd40, 6; mov.u64 %rd42, As;\n"
      "add.s64 %rd43, %rd42, %rd41; cvt.s64.s32 %rd44, %sl52; shl.b64 %rd45, %rd44, 2;\n"
      "add.s64 %rd46, %rd43, %rd45; ld.shared.f32 %f4, [%rd46]; shl.b64 %rd47, %rd44, 6; mov.u64 "
      "%rd48, Bs;\n"
      "add.s64 %rd49, %rd48, %rd47; cvt.s64.s32 %rd50, %r2; shl.b64 %rd51, %rd50, 2;\n"
      "add.s64 %rd52, %rd49, %rd51; ld.shared.f32 %f5, [%rd52];\n"
      "fma.rn.f32 %f7, %f4, %f5, %sl44; mov.f32 %sl44, %f7; bra.uni $L__BB0_5;\n"
      "$L__BB0_5: add.s32 %r4, %sl52, 1; mov.u32 %sl52, %r4; bra.uni $L__BB0_3;\n"
      "$L__BB0_6: st.global.f32 [%rd1], %sl44;",
      ".reg .b32 %sl52; .reg .f32 %sl44; .shared .align 4 .b8 As[1024]; .shared .align 4 .b8 "
      "Bs[1024];");
  const PassReport r = unroll(m);
  const Function& f = m.functions[0];
  EXPECT_EQ(r.notes.at(0), "k: loop at $L__BB0_3: trip count 16, fully unrolled");
  EXPECT_EQ(count(f, "fma.rn.f32"), 16);
  EXPECT_EQ(count(f, "ld.shared.f32"), 32);
  EXPECT_TRUE(find_loops(f).empty());
  EXPECT_EQ(count(f, "mov.b32"), 16);  // k's constants 0..15; k is dead after the loop
}

// Alone and before the other passes, on each fixture as it is and (when that assembles) after
// the cleanup pass: the output prints, re-parses and assembles; alone, one note per loop. Raw
// -O0 matrixMul keeps its loop counters in memory (no counted loop); after cleanup k is a register.
TEST(PtxPassUnroll, EveryFixtureStillAssembles) {
  const auto files = list_files(GPUCMP_PTX_FIXTURES);
  ASSERT_GE(files.size(), 10u);
  const std::string raw_matrix_mul =
      "matrixMul: loop at $L__BB0_3: its exit test reads %r33, which is not an induction register "
      "(no add/sub "
      "of a constant); not unrolled";
  const std::string cleaned_matrix_mul =
      "matrixMul: loop at $L__BB0_3: trip count 16, fully unrolled";
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    const Module original = parse_file(path);
    std::size_t loops = 0;
    for (const Function& f : original.functions) loops += find_loops(f).size();
    Module cleaned = original;
    std::vector<PassReport> cleanup;
    run_passes(cleaned, {"cleanup"}, false, &cleanup);
    std::string output;
    const bool use_cleaned =
        cleanup.at(0).changed > 0 && ptxas_assembles(print(cleaned), "sm_90", output);
    for (const std::vector<std::string>& names :
         {std::vector<std::string>{"unroll"},
          std::vector<std::string>{"unroll", "cse", "licm", "mad"}}) {
      for (const Module* start : {&original, static_cast<const Module*>(&cleaned)}) {
        if (start == &cleaned && !use_cleaned) continue;
        SCOPED_TRACE(std::string(start == &cleaned ? "cleanup," : "") + names.back());
        Module m = *start;
        std::vector<PassReport> reports;
        run_passes(m, names, false, &reports);
        expect_valid(m);
        const bool alone_on_fixture = start == &original && names.size() == 1;
        EXPECT_EQ(alone_on_fixture ? reports[0].notes.size() : loops, loops);  // one note per loop
        if (path.find("matrixMul-tile16-cloptdisable") != std::string::npos) {
          EXPECT_EQ(reports[0].notes.at(0),
                    start == &cleaned ? cleaned_matrix_mul : raw_matrix_mul);
        }
      }
    }
  }
}

}  // namespace
}  // namespace gpucmp::ptx
