// The ftz pass (ptx/passes.h pass_ftz): where .ftz goes in each form, what it
// leaves alone, and on OpenCL's fast-math cp PTX from the H200 every
// rsqrt.approx.f32 becomes rsqrt.approx.ftz.f32 (nvcc's --use_fast_math form)
// and the module still assembles (ptxas, when found).
#include <gtest/gtest.h>

#include <string>

#include "ptx/files.h"
#include "ptx/parser.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

Module kernel(const std::string& body) {
  return parse(
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
      "\t.reg .pred %p<3>;\n\t.reg .f32 %f<9>;\n\t.reg .f64 %fd<3>;\n" +
          body + "\tret;\n}\n",
      "ftz.ptx");
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PassFtz, PutsFtzWherePtxWantsIt) {
  Module m = kernel(
      "\trsqrt.approx.f32 %f1, %f2;\n\tadd.rn.sat.f32 %f3, %f1, %f2;\n"
      "\tfma.rn.f32 %f4, %f1, %f2, %f3;\n\tsetp.lt.f32 %p1, %f4, %f1;\n"
      "\tsin.approx.ftz.f32 %f5, %f4;\n\tadd.f64 %fd1, %fd2, %fd2;\n\tmax.f32 %f6, %f5, %f4;\n");
  const PassReport r = pass_ftz(m.functions.at(0));
  EXPECT_EQ(r.changed, 4);
  const std::string text = print(m);
  EXPECT_NE(text.find("rsqrt.approx.ftz.f32"), std::string::npos) << text;
  EXPECT_NE(text.find("add.rn.ftz.sat.f32"), std::string::npos) << text;
  EXPECT_NE(text.find("fma.rn.ftz.f32"), std::string::npos) << text;
  EXPECT_NE(text.find("setp.lt.ftz.f32"), std::string::npos) << text;
  EXPECT_EQ(count(text, "ftz.ftz"), 0) << text;                // already flushed: left alone
  EXPECT_NE(text.find("add.f64"), std::string::npos) << text;  // double: no .ftz form
  EXPECT_NE(text.find("max.f32"), std::string::npos) << text;  // not in the pass's list
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, "sm_90", output)) << output;
}

TEST(PassFtz, OpenClFastCpGetsNvccsRsqrt) {
  Module m =
      parse(read_text_file(std::string(GPUCMP_PTX_FIXTURES) +
                           "/gpu/h200-driver580.159.04-nvcc13.0/opencl/cp-unrollx8-fast.ptx"),
            "cp-unrollx8-fast.ptx");
  const std::string header = run_passes(m, {"ftz"}, true, nullptr);
  const std::string text = print(m);
  EXPECT_EQ(count(text, "rsqrt.approx.f32"), 0);
  EXPECT_EQ(count(text, "rsqrt.approx.ftz.f32"), 29);
  EXPECT_NE(header.find("ftz:"), std::string::npos) << header;
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, m.sm_target(), output)) << output;
}

}  // namespace
}  // namespace gpucmp::ptx
