// rewrite_nvcc_kernel_for_opencl (ptx/opencl_abi.h) on nvcc's real PTX of
// matrixMul: one kernel kept under OpenCL's names, pointer parameters marked
// .ptr .global, the result prints, re-parses and assembles with ptxas.
#include <gtest/gtest.h>

#include <stdexcept>

#include "ptx/files.h"
#include "ptx/opencl_abi.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

const std::string kNvccMatrixMul =
    std::string(GPUCMP_PTX_FIXTURES) + "/gpu/h200-driver580.159.04-nvcc13.0/cuda/matrixmul.ptx";

Module rewritten(const std::string& tile, std::vector<std::string>* notes = nullptr) {
  Module m = parse(read_text_file(kNvccMatrixMul), kNvccMatrixMul);
  rewrite_nvcc_kernel_for_opencl(m, "matrixMulILi" + tile + "E", "matrixMul", notes);
  return m;
}

TEST(PtxOpenclAbi, KeepsOneKernelUnderOpenclNames) {
  std::vector<std::string> notes;
  const Module m = rewritten("16", &notes);
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& f = m.functions[0];
  EXPECT_EQ(f.name, "matrixMul");
  EXPECT_TRUE(f.linkage.empty());
  ASSERT_EQ(f.params.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(f.params[i].is_ptr) << i;
    EXPECT_EQ(f.params[i].ptr_space, ".global");
    EXPECT_EQ(f.params[i].name, "matrixMul_param_" + std::to_string(i));
  }
  EXPECT_FALSE(f.params[3].is_ptr);  // int n
  EXPECT_EQ(m.targets.back(), "texmode_independent");
  EXPECT_EQ(notes.size(), 4u);  // kept ..., and three pointers

  const std::string text = print(m);
  EXPECT_EQ(text.find("_ZN6gpucmp4cuda9matrixMulILi16EEEvPfPKfS4_i_param"), std::string::npos);
  EXPECT_EQ(text.find(".entry _Z"), std::string::npos);  // the tile-32 kernel is gone
  EXPECT_NE(text.find("ld.param.u32 \t%r11, [matrixMul_param_3];"), std::string::npos) << text;
  EXPECT_NO_THROW(parse(text, "rewritten.ptx"));
}

TEST(PtxOpenclAbi, RefusesAmbiguousOrMissingKernels) {
  Module m = parse(read_text_file(kNvccMatrixMul), kNvccMatrixMul);
  EXPECT_THROW(rewrite_nvcc_kernel_for_opencl(m, "matrixMul", "matrixMul"), std::invalid_argument);
  try {
    rewrite_nvcc_kernel_for_opencl(m, "cp_base", "cp_base");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no kernel matches 'cp_base'"), std::string::npos);
  }
}

TEST(PtxOpenclAbi, OutputAssemblesWithPtxas) {
  GPUCMP_SKIP_WITHOUT_PTXAS();
  for (const char* tile : {"16", "32"}) {
    std::string output;
    EXPECT_EQ(run_ptxas(print(rewritten(tile)), "sm_90", output), 0) << tile << "\n" << output;
  }
}

}  // namespace
}  // namespace gpucmp::ptx
