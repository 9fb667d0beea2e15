// The optimization passes (ptx/passes.h): exact effects on small hand-written
// kernels, and on every fixture (tests/fixtures/ptx/**/*.ptx) each pass alone
// and all three together still print, re-parse, assemble (when ptxas was found)
// and never add instructions.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "ptx/files.h"
#include "ptx/parser.h"
#include "ptx/pass_registry.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

Function parse_kernel(const std::string& body) {
  const std::string text =
      ".version 9.0\n.target sm_90\n.address_size 64\n.entry k() {\n" + body + "}\n";
  return parse(text, "kernel.ptx").functions.at(0);
}

int total_instructions(const Module& m) {
  int n = 0;
  for (const Function& f : m.functions) n += count_instructions(f);
  return n;
}

// Index of the first body statement whose printed text (tabs dropped) starts
// with `prefix`, or -1.
int find_statement(const Function& f, const std::string& prefix) {
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    std::string text = print(f.body[i]);
    text.erase(std::remove(text.begin(), text.end(), '\t'), text.end());
    if (text.rfind(prefix, 0) == 0) return static_cast<int>(i);
  }
  return -1;
}

// ---- mad ----------------------------------------------------------------------

TEST(PtxPassMad, FusesIntegerMulAdd) {
  Function f = parse_kernel(
      "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r5, 7;\n"
      "\tmul.lo.s32 %r3, %r1, %r2;\n\tadd.s32 %r4, %r5, %r3;\n\tret;\n");
  ASSERT_EQ(count_instructions(f), 6);
  const PassReport r = pass_mad(f, false);
  EXPECT_EQ(r.pass, "mad");
  EXPECT_EQ(r.changed, 1);
  EXPECT_EQ(count_instructions(f), 5);
  EXPECT_GE(find_statement(f, "mad.lo.s32 %r4, %r1, %r2, %r5;"), 0) << print(f);
  EXPECT_LT(find_statement(f, "mul"), 0);
}

TEST(PtxPassMad, KeepsMulWithTwoUses) {
  Function f = parse_kernel(
      "\tmov.u32 %r1, %tid.x;\n\tmul.lo.s32 %r3, %r1, %r1;\n\tadd.s32 %r4, %r3, 1;\n"
      "\tadd.s32 %r5, %r3, %r4;\n\tret;\n");
  EXPECT_EQ(pass_mad(f, true).changed, 0);
  EXPECT_EQ(count_instructions(f), 5);
}

TEST(PtxPassMad, KeepsMismatchedTypesAndGuards) {
  Function f = parse_kernel(
      "\tmov.u32 %r1, %tid.x;\n\tmul.lo.s32 %r3, %r1, %r1;\n\tadd.u32 %r4, %r3, 1;\n"
      "\tsetp.eq.s32 %p1, %r1, 0;\n\tmul.lo.s32 %r6, %r1, 3;\n\t@%p1 add.s32 %r7, %r6, "
      "1;\n\tret;\n");
  EXPECT_EQ(pass_mad(f, false).changed, 0);
  EXPECT_EQ(count_instructions(f), 7);
}

const char* const kFloatMulAdd =
    "\tmov.b32 %f1, 0f3F800000;\n\tmov.b32 %f2, 0f40000000;\n"
    "\tmul.f32 %f3, %f1, %f2;\n\tadd.f32 %f4, %f3, %f1;\n"
    "\tmul.rn.f32 %f5, %f1, %f2;\n\tadd.f32 %f6, %f5, %f1;\n"
    "\tmul.ftz.f32 %f7, %f1, %f2;\n\tadd.ftz.f32 %f8, %f1, %f7;\n\tret;\n";

TEST(PtxPassMad, FloatOnlyWithContraction) {
  Function off = parse_kernel(kFloatMulAdd);
  EXPECT_EQ(pass_mad(off, false).changed, 0);
  EXPECT_EQ(count_instructions(off), 9);

  Function on = parse_kernel(kFloatMulAdd);
  const PassReport r = pass_mad(on, true);
  EXPECT_EQ(r.changed, 2);  // not the mul.rn
  EXPECT_EQ(count_instructions(on), 7);
  EXPECT_GE(find_statement(on, "fma.rn.f32 %f4, %f1, %f2, %f1;"), 0) << print(on);
  EXPECT_GE(find_statement(on, "fma.rn.ftz.f32 %f8, %f1, %f2, %f1;"), 0) << print(on);
  EXPECT_GE(find_statement(on, "mul.rn.f32 %f5"), 0);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("2 mul.f32+add.f32"), std::string::npos) << r.notes[0];
}

// ---- cse ----------------------------------------------------------------------

TEST(PtxPassCse, RemovesRepeatInBlock) {
  Function f = parse_kernel(
      "\tmov.u32 %r1, %tid.x;\n\tmul.wide.s32 %rd1, %r1, 4;\n\tmul.wide.s32 %rd2, %r1, 4;\n"
      "\tadd.s64 %rd3, %rd1, %rd2;\n\tret;\n");
  ASSERT_EQ(count_instructions(f), 5);
  const PassReport r = pass_cse(f);
  EXPECT_EQ(r.changed, 1);
  EXPECT_EQ(count_instructions(f), 4);
  EXPECT_GE(find_statement(f, "add.s64 %rd3, %rd1, %rd1;"), 0) << print(f);
}

TEST(PtxPassCse, UsesDominatorsNotSiblings) {
  // Block 0 computes %rd1; both arms repeat it (removed); the arms' own
  // computations do not dominate each other (kept).
  Function f = parse_kernel(
      "\tmov.u32 %r1, %tid.x;\n\tmul.wide.s32 %rd1, %r1, 4;\n\tsetp.eq.s32 %p1, %r1, 0;\n"
      "\t@%p1 bra $L2;\n"
      "\tmul.wide.s32 %rd2, %r1, 4;\n\tshl.b32 %r2, %r1, 2;\n\tbra.uni $L3;\n"
      "$L2:\n\tmul.wide.s32 %rd3, %r1, 4;\n\tshl.b32 %r3, %r1, 2;\n"
      "$L3:\n\tret;\n");
  ASSERT_EQ(count_instructions(f), 10);
  EXPECT_EQ(pass_cse(f).changed, 2);
  EXPECT_EQ(count_instructions(f), 8);
  EXPECT_GE(find_statement(f, "shl.b32 %r2"), 0);
  EXPECT_GE(find_statement(f, "shl.b32 %r3"), 0);
}

TEST(PtxPassCse, KeepsLoadsAndMultiplyDefined) {
  Function f = parse_kernel(
      "\tmov.u64 %rd1, 0;\n\tld.global.u32 %r1, [%rd1];\n\tld.global.u32 %r2, [%rd1];\n"
      "\tmov.u32 %r3, %clock;\n\tmov.u32 %r4, %clock;\n"
      "\tadd.s32 %r5, %r1, 1;\n\tadd.s32 %r6, %r1, 1;\n\tadd.s32 %r6, %r6, 1;\n\tret;\n");
  EXPECT_EQ(pass_cse(f).changed, 0);
  EXPECT_EQ(count_instructions(f), 9);
}

// ---- licm ---------------------------------------------------------------------

const char* const kLoop =
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, 0;\n"
    "$L1:\n\tmul.lo.s32 %r5, %r1, %r2;\n\tmov.u32 %r6, %ctaid.x;\n\tadd.s32 %r7, %r5, %r6;\n"
    "\tadd.s32 %r3, %r3, %r7;\n\tsetp.lt.s32 %p1, %r3, 100;\n\t@%p1 bra $L1;\n\tret;\n";

TEST(PtxPassLicm, HoistsInvariantsToPreheader) {
  Function f = parse_kernel(kLoop);
  ASSERT_EQ(count_instructions(f), 10);
  const PassReport r = pass_licm(f);
  EXPECT_EQ(r.changed, 3);  // mul, mov %ctaid, and the add of both
  EXPECT_EQ(count_instructions(f), 10);
  const int header = find_statement(f, "$L1:");
  ASSERT_GE(header, 0);
  EXPECT_LT(find_statement(f, "mul.lo.s32 %r5, %r1, %r2;"), header) << print(f);
  EXPECT_LT(find_statement(f, "add.s32 %r7, %r5, %r6;"), header) << print(f);
  EXPECT_GT(find_statement(f, "add.s32 %r3, %r3, %r7;"), header) << print(f);
  EXPECT_GT(find_statement(f, "setp.lt.s32"), header);
}

TEST(PtxPassLicm, SkipsLoopWithoutPreheader) {
  Function f = parse_kernel(
      "$L1:\n\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r3, %r3, %r1;\n"
      "\tsetp.lt.s32 %p1, %r3, 100;\n\t@%p1 bra $L1;\n\tret;\n");
  const std::string before = print(f);
  const PassReport r = pass_licm(f);
  EXPECT_EQ(r.changed, 0);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("no unique preheader"), std::string::npos);
  EXPECT_EQ(print(f), before);
}

// ---- run_passes ---------------------------------------------------------------

TEST(PtxPassPipeline, HeaderAndUnknownName) {
  Module m =
      parse(".version 9.0\n.target sm_90\n.entry k() {\n" + std::string(kLoop) + "}\n", "k.ptx");
  std::vector<PassReport> reports;
  const std::string header = run_passes(m, {"cse", "licm", "mad"}, false, &reports);
  EXPECT_EQ(
      header.rfind(
          "// gpucmp-ptx opt: passes cse,licm,mad; float contraction: off\n// cse: 0 changed\n"
          "// licm: 3 changed (",
          0),
      0u)
      << header;
  ASSERT_EQ(reports.size(), 3u);
  EXPECT_EQ(reports[1].changed, 3);
  EXPECT_EQ(reports[2].changed, 1);  // the hoisted mul.lo + add.s32 -> mad.lo
  EXPECT_THROW(run_passes(m, {"cse", "dce"}, false, nullptr), std::invalid_argument);
  try {
    run_passes(m, {"dce"}, false, nullptr);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'dce'"), std::string::npos);
  }
}

// ---- the registry ---------------------------------------------------------------

TEST(PtxPassRegistry, ListsEveryPassOnceInTheStudysOrder) {
  std::vector<std::string> names;
  std::set<std::string> module_scope;
  for (const PassInfo& p : pass_registry()) {
    SCOPED_TRACE(p.name);
    names.push_back(p.name);
    EXPECT_FALSE(p.description.empty());
    EXPECT_EQ(p.description.find('\n'), std::string::npos);  // one line
    EXPECT_NE(p.run, nullptr);
    EXPECT_EQ(find_pass(p.name), &p);
    if (p.scope == PassScope::Module) module_scope.insert(p.name);
    for (const std::string& step : p.steps) EXPECT_NE(find_pass(step), nullptr) << step;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"inline", "promote-slots", "copy-prop", "cleanup",
                                             "unroll", "cse", "mad", "licm", "align", "ftz",
                                             "shared32", "cpasync", "cpasync-nobar"}));
  EXPECT_EQ(module_scope, (std::set<std::string>{"inline", "cleanup", "align", "shared32",
                                                 "cpasync", "cpasync-nobar"}));
  EXPECT_EQ(find_pass("cleanup")->steps,
            (std::vector<std::string>{"inline", "promote-slots", "copy-prop"}));
  EXPECT_EQ(find_pass("dce"), nullptr);
  EXPECT_STREQ(scope_name(PassScope::Function), "function");
  EXPECT_STREQ(scope_name(PassScope::Module), "module");
  // What the OpenCL variants name: the registry without cleanup's steps.
  EXPECT_EQ(known_passes(),
            (std::vector<std::string>{"cleanup", "unroll", "cse", "mad", "licm", "align", "ftz",
                                      "shared32", "cpasync", "cpasync-nobar"}));
}

TEST(PtxPassRegistry, UnknownNameThrowsBeforeAnyPassRuns) {
  Module m =
      parse(".version 9.0\n.target sm_90\n.entry k() {\n" + std::string(kLoop) + "}\n", "k.ptx");
  const std::string before = print(m);
  try {
    run_passes(m, {"licm", "inline", "frobnicate"}, false, nullptr);
    ADD_FAILURE() << "an unknown pass must throw";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown PTX pass 'frobnicate'"), std::string::npos) << what;
    for (const PassInfo& p : pass_registry())
      EXPECT_NE(what.find(p.name), std::string::npos) << what;
  }
  EXPECT_EQ(print(m), before);  // licm did not run
  EXPECT_NO_THROW(run_passes(m, {"inline", "promote-slots", "copy-prop"}, false, nullptr));
}

// The context reaches the pass: 64 iterations, unrolled by the factor given.
TEST(PtxPassRegistry, ContextCarriesTheUnrollFactor) {
  const std::string text =
      ".version 9.0\n.target sm_90\n.entry k() {\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n"
      "\tmov.u32 %r1, 0;\n\tmov.u32 %r2, 0;\n$L1:\n\tadd.s32 %r2, %r2, %r1;\n"
      "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.s32 %p1, %r1, 64;\n\t@%p1 bra $L1;\n\tret;\n}\n";
  for (const int factor : {2, 4, 8}) {
    SCOPED_TRACE(factor);
    Module m = parse(text, "loop.ptx");
    PassContext context;
    context.unroll_factor = factor;
    std::vector<PassReport> reports;
    run_passes(m, {"unroll"}, context, &reports);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].pass, "unroll");
    EXPECT_EQ(count_instructions(m.functions[0]), 2 + 2 * factor + 3) << print(m);
  }
}

// ---- every fixture ------------------------------------------------------------

TEST(PtxPassFixtures, EachPassAndAllTogether) {
  const auto files = list_files(GPUCMP_PTX_FIXTURES);
  ASSERT_GE(files.size(), 10u);
  const std::vector<std::vector<std::string>> pipelines = {
      {"mad"}, {"cse"}, {"licm"}, {"cse", "licm", "mad"}};
  for (const auto& path : files) {
    const Module original = parse_file(path);
    for (const auto& names : pipelines) {
      for (const bool contraction : {false, true}) {
        if (contraction && names.size() == 1 && names[0] != "mad") continue;
        SCOPED_TRACE(path + " " + names.back() + (contraction ? " +contraction" : ""));
        Module m = original;
        const std::string header = run_passes(m, names, contraction, nullptr);
        const std::string text = header + print(m);
        Module again = parse(text, path + " (optimized)");
        ASSERT_EQ(again.functions.size(), m.functions.size());
        for (std::size_t f = 0; f < m.functions.size(); ++f)
          EXPECT_EQ(print(again.functions[f]), print(m.functions[f]));
        EXPECT_LE(total_instructions(again), total_instructions(original));
        std::string output;  // ptxas when found at configure time
        EXPECT_TRUE(ptxas_assembles(text, m.sm_target(), output)) << output;
      }
    }
  }
}

}  // namespace
}  // namespace gpucmp::ptx
