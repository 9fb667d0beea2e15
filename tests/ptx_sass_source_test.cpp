// SASS files name their source on their first line ("// SASS: driver JIT ...",
// "// SASS: offline ptxas ..."): the parser reports it and counts nothing of
// it; two listings compare by opcode counts.
#include <gtest/gtest.h>

#include "ptx/sass.h"
#include "ptx/sass_compare.h"

namespace gpucmp::ptx {
namespace {

const char* kBody = R"(
	code for sm_90
		Function : matrixMul
        /*0000*/                   LDS R4, [R2] ;              /* 0x0000000002047984 */
        /*0010*/                   LDS R5, [R2+0x4] ;          /* 0x0000040002057984 */
        /*0020*/                   FFMA R0, R4, R5, R0 ;       /* 0x0000000504007223 */
        /*0030*/                   EXIT ;                      /* 0x000000000000794d */
)";

TEST(SassSource, FirstLineLabelIsTheSourceAndNotCounted) {
  const std::string label =
      "// SASS: driver JIT (NVIDIA OpenCL, driver 580.1), cubin from the compute cache";
  const SassStats labelled = parse_sass(label + "\n" + kBody);
  const SassStats bare = parse_sass(kBody);
  EXPECT_EQ(labelled.source, label.substr(3));
  EXPECT_EQ(bare.source, "");
  EXPECT_EQ(labelled.total.total, bare.total.total);
  EXPECT_EQ(labelled.total.total, 4);
  EXPECT_EQ(to_json(labelled).at("source"), label.substr(3));
  EXPECT_FALSE(to_json(bare).contains("source"));
}

TEST(SassSource, OnlyTheFirstLineIsALabel) {
  EXPECT_EQ(sass_source_label("// SASS: offline ptxas 13.0.88 -arch=sm_90 on x.ptx\r\nbody"),
            "SASS: offline ptxas 13.0.88 -arch=sm_90 on x.ptx");
  EXPECT_EQ(sass_source_label("// SASS by offline ptxas (older dumps)\n"),
            "SASS by offline ptxas (older dumps)");
  EXPECT_EQ(sass_source_label("\n// SASS: second line\n"), "");
  EXPECT_EQ(sass_source_label("// a comment\n"), "");
  EXPECT_EQ(sass_source_label(""), "");
}

TEST(SassSource, CompareByOpcodeCounts) {
  const SassStats jit = parse_sass(std::string("// SASS: driver JIT\n") + kBody);
  const SassStats same = parse_sass(kBody);
  const SassStats vector = parse_sass(R"(
        /*0000*/                   LDS.64 R4, [R2] ;
        /*0020*/                   FFMA R0, R4, R5, R0 ;
        /*0030*/                   EXIT ;
)");
  const SassComparison eq = compare_sass(jit, same, "a.sass", "b.sass");
  EXPECT_TRUE(eq.equal) << eq.table;
  EXPECT_NE(eq.table.find("A = a.sass (SASS: driver JIT)"), std::string::npos) << eq.table;
  EXPECT_NE(eq.table.find("B = b.sass (source not labelled)"), std::string::npos) << eq.table;
  const SassComparison ne = compare_sass(jit, vector, "jit", "ptxas");
  EXPECT_FALSE(ne.equal);
  EXPECT_NE(ne.table.find("LDS.64"), std::string::npos) << ne.table;
  EXPECT_EQ(ne.table.find("FFMA"), std::string::npos) << ne.table;  // equal counts: no row
}

}  // namespace
}  // namespace gpucmp::ptx
