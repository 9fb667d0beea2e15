// diff(): normalized unified diffs and side-by-side stats; kernel matching;
// the line diff itself.
#include <gtest/gtest.h>

#include <regex>

#include "ptx/diff.h"
#include "ptx/files.h"
#include "ptx/kernel_match.h"
#include "ptx/line_diff.h"
#include "ptx/parser.h"

namespace gpucmp::ptx {
namespace {

const std::string kFixtures = GPUCMP_PTX_FIXTURES;

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(PtxDiff, DetectsAChangedInstructionAndShowsTheDelta) {
  const std::string text = read_text_file(kFixtures + "/handwritten/counts.ptx");
  const std::string changed =
      replace_once(text, "fma.rn.f32 \t%f6, %f3, 0f3F000000, %f5;", "mul.rn.f32 \t%f6, %f3, %f5;");
  const DiffResult r = diff(parse(text, "a"), parse(changed, "b"), "cuda.ptx", "opencl.ptx");
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.unified.rfind("--- cuda.ptx\n+++ opencl.ptx\n@@ -", 0), 0u) << r.unified;
  EXPECT_NE(r.unified.find(
                "\n-\tfma.rn.f32 \t%f6, %f3, 0f3F000000, %f5;\n+\tmul.rn.f32 \t%f6, %f3, %f5;\n"),
            std::string::npos)
      << r.unified;
  EXPECT_NE(r.stats_table.find("A = cuda.ptx\nB = opencl.ptx\n"), std::string::npos)
      << r.stats_table;
  EXPECT_NE(r.stats_table.find("kernel scale_add (A) <-> scale_add (B)"), std::string::npos);
  for (const char* row : {R"(\n  instructions +27 +27 +0\n)", R"(\n  fma\.f32 +2 +1 +-1\n)",
                          R"(\n  mul\.f32 +0 +1 +\+1\n)", R"(\n  ld\.shared +1 +1 +0\n)"})
    EXPECT_TRUE(std::regex_search(r.stats_table, std::regex(row))) << row << "\n" << r.stats_table;
}

TEST(PtxDiff, RenumberingAloneIsEqual) {
  const std::string text = read_text_file(kFixtures + "/handwritten/unroll4.ptx");
  std::string renamed = text;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"$L__BB0_", "$L__BB7_"}, {"%f19", "%f18x"}, {"%f1,", "%f19,"}, {"%f18x", "%f1"}})
    for (auto at = renamed.find(from); at != std::string::npos;
         at = renamed.find(from, at + to.size()))
      renamed.replace(at, from.size(), to);
  ASSERT_NE(text, renamed);
  const DiffResult r = diff(parse(text, "a"), parse(renamed, "b"), "a", "b");
  EXPECT_TRUE(r.equal) << r.unified;
}

TEST(PtxDiff, UnifiedDiffHunks) {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += "line " + std::to_string(i) + "\n";
    b += (i == 5    ? std::string("changed 5")
          : i == 16 ? std::string("changed 16")
                    : "line " + std::to_string(i)) +
         "\n";
  }
  b += "line 21\n";
  EXPECT_EQ(
      unified_diff(a, b, "a", "b"),
      "--- a\n+++ b\n"
      "@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+changed 5\n line 6\n line 7\n line 8\n"
      "@@ -13,8 +13,9 @@\n line 13\n line 14\n line 15\n-line 16\n+changed 16\n line 17\n line 18\n"
      " line 19\n line 20\n+line 21\n");
  EXPECT_EQ(unified_diff(a, a, "a", "b"), "");
  EXPECT_EQ(unified_diff("", "x\n", "a", "b"), "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n");
  EXPECT_EQ(unified_diff("x\n", "", "a", "b"), "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n");
}

TEST(PtxDiff, LineDiffIsMinimal) {
  const std::vector<std::string> a = {"a", "b", "c", "a", "b", "b", "a"};
  const std::vector<std::string> b = {"c", "b", "a", "b", "a", "c"};
  int changes = 0;
  std::vector<std::string> rebuilt;
  for (const auto& e : diff_lines(a, b)) {
    if (e.op != LineEdit::Op::Keep) ++changes;
    if (e.op != LineEdit::Op::Remove)
      rebuilt.push_back(e.op == LineEdit::Op::Add ? b[e.b] : a[e.a]);
  }
  EXPECT_EQ(changes, 5);  // the classic Myers example: D = 5
  EXPECT_EQ(rebuilt, b);
}

TEST(PtxDiff, KernelMatching) {
  EXPECT_TRUE(mangled_names_identifier("_ZN6gpucmp4cuda9matrixMulILi16EEEvPfPKfS4_i", "matrixMul"));
  EXPECT_FALSE(mangled_names_identifier("_ZN6gpucmp4cuda19matrixMulTransposedEv", "matrixMul"));
  EXPECT_FALSE(mangled_names_identifier("matrixMul", "matrixMul"));
  EXPECT_TRUE(mangled_names_identifier(
      "_ZN6gpucmp4cuda7precise37_GLOBAL__N__1b766f9b_5_cp_cu_1265d75e11cp_unrollx8EifPf",
      "cp_unrollx8"));

  using P = std::vector<std::pair<int, int>>;
  EXPECT_EQ(match_kernels({"a", "b"}, {"b", "a"}), (P{{0, 1}, {1, 0}}));
  EXPECT_EQ(match_kernels({"_Z7cp_basev", "_Z11cp_unrollx8v"}, {"cp_unrollx8", "cp_base"}),
            (P{{0, 1}, {1, 0}}));
  EXPECT_EQ(match_kernels({"x", "y"}, {"p"}), (P{{0, 0}, {1, -1}}));
  EXPECT_EQ(match_kernels({"x"}, {"p", "q"}), (P{{0, 0}, {-1, 1}}));
}

TEST(PtxDiff, CudaAgainstOpenClNamesArePaired) {
  const Module cuda = parse_file(kFixtures + "/nvcc-local/matrixmul.ptx");
  const std::string opencl_text =
      replace_once(replace_once(read_text_file(kFixtures + "/nvcc-local/matrixmul.ptx"),
                                ".visible .entry _ZN6gpucmp4cuda9matrixMulILi32EEEvPfPKfS4_i(",
                                ".entry matrixMul("),
                   ".visible .entry _ZN6gpucmp4cuda9matrixMulILi16EEEvPfPKfS4_i(", ".entry other(");
  const DiffResult r = diff(cuda, parse(opencl_text, "cl"), "cuda", "opencl");
  EXPECT_FALSE(r.equal);
  EXPECT_NE(r.stats_table.find(
                "kernel _ZN6gpucmp4cuda9matrixMulILi32EEEvPfPKfS4_i (A) <-> matrixMul (B)"),
            std::string::npos)
      << r.stats_table;
  EXPECT_NE(
      r.stats_table.find("kernel _ZN6gpucmp4cuda9matrixMulILi16EEEvPfPKfS4_i (A) <-> other (B)"),
      std::string::npos)
      << r.stats_table;
}

TEST(PtxDiff, KernelsPairWithKernelsAndFunctionsWithFunctions) {
  const DiffResult r = diff(parse_file(kFixtures + "/handwritten/counts.ptx"),
                            parse_file(kFixtures + "/handwritten/opencl_O0.ptx"), "a", "b");
  EXPECT_NE(r.stats_table.find("kernel scale_add (A) <-> vadd (B)"), std::string::npos)
      << r.stats_table;
  EXPECT_NE(r.stats_table.find("kernel - (A) <-> get_global_id (B)"), std::string::npos)
      << r.stats_table;
}

}  // namespace
}  // namespace gpucmp::ptx
