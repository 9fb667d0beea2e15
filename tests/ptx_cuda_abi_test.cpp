// rewrite_opencl_kernel_for_cuda (ptx/cuda_abi.h) on NVIDIA OpenCL's real PTX
// (tests/fixtures/ptx/gpu/): no %envreg is left, __constant parameters read
// the module's constant array, the result prints, parses again and assembles
// with ptxas for sm_90; what cannot be rewritten safely is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "ptx/cuda_abi.h"
#include "ptx/files.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

const std::string kGpu = std::string(GPUCMP_PTX_FIXTURES) + "/gpu/h200-driver580.159.04-nvcc13.0/";
constexpr std::size_t kConstantBytes = 64000;  // cp's chunk: 4000 float4

Module fixture(const std::string& file) { return parse(read_text_file(kGpu + file), file); }

// Every operand of every instruction, as printed.
std::vector<std::string> operands(const Module& m) {
  std::vector<std::string> out;
  for (const Function& f : m.functions)
    for (const Statement& s : f.body)
      if (s.kind == Statement::Kind::Instruction)
        for (const Operand& o : s.instruction.operands) out.push_back(o.str());
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Each OpenCL fixture: rewritten, printed, parsed again, assembled.
class RewriteEachOpenClFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(RewriteEachOpenClFixture, LeavesNoEnvregAndAssembles) {
  const std::string file = GetParam();
  Module m = fixture(file);
  const std::string before = print(m);
  ASSERT_GT(count(before, "%envreg"), 0u) << file << ": the fixture should read envregs";
  std::vector<std::string> notes;
  ASSERT_NO_THROW(rewrite_opencl_kernel_for_cuda(m, kConstantBytes, &notes)) << file;
  EXPECT_FALSE(notes.empty());
  const std::string text = print(m);
  EXPECT_EQ(count(text, "%envreg"), 0u) << text;
  const Module again = parse(text, file + " (rewritten)");
  EXPECT_EQ(print(again), text) << "printing is not stable";
  EXPECT_EQ(again.functions.size(), m.functions.size());
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, "sm_90", output)) << file << "\n" << output;
}

INSTANTIATE_TEST_SUITE_P(OpenCl, RewriteEachOpenClFixture,
                         ::testing::Values("opencl/matrixMul-tile16.ptx",
                                           "opencl/matrixMul-tile32.ptx", "opencl/cp-base.ptx",
                                           "opencl/cp-unrollx8.ptx", "opencl/cp-unrollx8-ieee.ptx",
                                           "opencl/cp-unrollx8-fast.ptx", "opencl/mriq-precise.ptx",
                                           "opencl/mriq-fast.ptx", "opencl/mrifhd-precise.ptx",
                                           "opencl/mrifhd-fast.ptx",
                                           "opencl-O0/matrixMul-tile16-cloptdisable.ptx",
                                           "opencl-O0/cp-cloptdisable.ptx"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// matrixMul: the two work-group offsets become 0; nothing else changes.
TEST(PtxCudaAbi, MatrixMulWorkGroupOffsetsBecomeZero) {
  Module m = fixture("opencl/matrixMul-tile16.ptx");
  const std::string before = print(m);
  std::vector<std::string> notes;
  rewrite_opencl_kernel_for_cuda(m, 0, &notes);
  const std::string text = print(m);
  EXPECT_NE(text.find("mov.b32 \t%r9, 0;"), std::string::npos) << text;
  EXPECT_NE(text.find("mov.b32 \t%r14, 0;"), std::string::npos) << text;
  EXPECT_EQ(count(text, "\n"), count(before, "\n")) << "only the two reads should change";
  EXPECT_EQ(text.find(kConstantArgSymbol), std::string::npos) << "no __constant parameter here";
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "matrixMul: %envreg0 -> 0 (1 read), %envreg1 -> 0 (1 read)");
}

// cp: get_global_size(0) is %envreg6 * %ntid.x, so %envreg6 becomes
// %nctaid.x; the __constant atoms read the module's constant array.
TEST(PtxCudaAbi, CpGroupCountAndConstantAtoms) {
  Module m = fixture("opencl/cp-unrollx8.ptx");
  std::vector<std::string> notes;
  rewrite_opencl_kernel_for_cuda(m, kConstantBytes, &notes);
  const std::string text = print(m);
  EXPECT_EQ(count(text, "mov.u32 \t%r22, %nctaid.x;"), 1u) << text;  // cp_base
  EXPECT_EQ(count(text, "mov.u32 \t%r2, %nctaid.x;"), 1u) << text;   // cp_unrollx8
  EXPECT_NE(text.find(".visible .const .align 16 .b8 gpucmp_opencl_constant_arg[64000];"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("mov.u64 \t%rd7, gpucmp_opencl_constant_arg;"), std::string::npos) << text;
  EXPECT_EQ(text.find("[cp_unrollx8_param_3]"), std::string::npos)
      << "no read of the parameter left";
  // The parameter list is still OpenCL's: four parameters, the last one unused.
  for (const Function& f : m.functions) EXPECT_EQ(f.params.size(), 4u) << f.name;
  EXPECT_EQ(count(text, kConstantArgSymbol), 3u);  // declared once, read by both kernels
  // The constant array is declared before the kernels that read it.
  EXPECT_LT(text.find(".const .align 16"), text.find(".entry cp_base"));
}

// The -O0 builtins show the layout: get_global_size(d) = %envreg(6+d) * %ntid.
TEST(PtxCudaAbi, GroupCountsOfEveryAxisAtO0) {
  Module m = fixture("opencl-O0/cp-cloptdisable.ptx");
  rewrite_opencl_kernel_for_cuda(m, kConstantBytes);
  const auto ops = operands(m);
  for (const char* axis : {"%nctaid.x", "%nctaid.y", "%nctaid.z"})
    EXPECT_NE(std::find(ops.begin(), ops.end(), axis), ops.end()) << axis;
}

Module tiny(const std::string& body, const std::string& params = ".param .u32 k_param_0") {
  const std::string text =
      ".version 9.0\n.target sm_90, texmode_independent\n.address_size 64\n\n"
      ".entry k(\n\t" +
      params +
      "\n)\n{\n\t.reg .b32 \t%r<4>;\n"
      "\t.reg .b64 \t%rd<4>;\n\n" +
      body + "\tret;\n\n}\n";
  return parse(text, "tiny.ptx");
}

void expect_refused(Module m, const std::string& why, std::size_t constant_bytes = 0) {
  try {
    rewrite_opencl_kernel_for_cuda(m, constant_bytes);
    FAIL() << "not refused: " << why;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("kernel k"), std::string::npos) << e.what();
  }
}

TEST(PtxCudaAbi, RefusesEnvregsItCannotReplaceSafely) {
  expect_refused(tiny("\tmov.b32 \t%r1, %envreg9;\n"), "%envreg9 has no CUDA equivalent");
  expect_refused(tiny("\tmov.b32 \t%r1, %envreg12;\n"), "%envreg12 has no CUDA equivalent");
  expect_refused(tiny("\tcvt.u64.u32 \t%rd1, %envreg3;\n"), "other than by a 32-bit mov");
  expect_refused(tiny("\tmov.b64 \t%rd1, %envreg3;\n"), "other than by a 32-bit mov");
}

TEST(PtxCudaAbi, RefusesConstantParametersItCannotRedirect) {
  const std::string one = ".param .u64 .ptr .const .align 16 k_param_0";
  const std::string load = "\tld.param.u64 \t%rd1, [k_param_0];\n";
  expect_refused(tiny("\tmov.u64 \t%rd1, k_param_0;\n", one), "read other than by ld.param.u64",
                 16);
  expect_refused(tiny("\tld.param.u32 \t%r1, [k_param_0+4];\n", one),
                 "read other than by ld.param.u64", 16);
  expect_refused(tiny(load, one + ",\n\t.param .u64 .ptr .const .align 16 k_param_1"),
                 "several __constant pointer parameters");
  Module no_size = tiny(load, one), too_big = tiny(load, one);
  EXPECT_THROW(rewrite_opencl_kernel_for_cuda(no_size, 0), std::invalid_argument);
  EXPECT_THROW(rewrite_opencl_kernel_for_cuda(too_big, 65537), std::invalid_argument);
  Module ok = tiny(load, one);
  EXPECT_NO_THROW(rewrite_opencl_kernel_for_cuda(ok, 16));
}

}  // namespace
}  // namespace gpucmp::ptx
