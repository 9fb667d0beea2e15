// Known facts of the real PTX captured on the H200 (tests/fixtures/ptx/gpu/),
// as docs/DESIGN.md "Measured facts" records them for driver 580 and nvcc
// 13.0: a regression in the parser, the CFG or the counting shows up here
// against real compiler output.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ptx/parser.h"
#include "ptx/stats.h"

namespace gpucmp::ptx {
namespace {

const std::string kDir = std::string(GPUCMP_PTX_FIXTURES) + "/gpu/h200-driver580.159.04-nvcc13.0/";

const KernelStats& kernel(const Stats& s, const std::string& needle) {
  for (const auto& k : s.kernels)
    if (k.name.find(needle) != std::string::npos) return k;
  throw std::runtime_error("no kernel " + needle + " in " + s.filename);
}

const LoopStats& biggest_loop(const KernelStats& k) {
  if (k.loops.empty()) throw std::runtime_error(k.name + " has no loop");
  const LoopStats* best = &k.loops.front();
  for (const auto& l : k.loops)
    if (l.instructions > best->instructions) best = &l;
  return *best;
}

// docs/DESIGN.md: "default OpenCL PTX is already unrolled and fused (16 fma, 32
// ld.shared in the loop, the same counts as nvcc's PTX)".
TEST(GpuFixtures, MatrixMulTile16LoopIsUnrolledAndFusedInBothCompilers) {
  for (const auto& [file, name] : {std::pair{"opencl/matrixMul-tile16.ptx", "matrixMul"},
                                   {"cuda/matrixmul.ptx", "matrixMulILi16"}}) {
    const Stats s = compute_stats(parse_file(kDir + file));
    const LoopStats loop = biggest_loop(kernel(s, name));
    EXPECT_EQ(loop.counts.of_class("fma.f32"), 16) << file;
    EXPECT_EQ(loop.counts.of_class("ld.shared"), 32) << file;
    EXPECT_EQ(loop.counts.of_class("mul.f32") + loop.counts.of_class("add.f32"), 0) << file;
    EXPECT_EQ(loop.counts.of_class("bar"), 2) << file;
  }
}

TEST(GpuFixtures, OpenClEntriesAreUnmangledWithGlobalPointerParams) {
  const Stats s = compute_stats(parse_file(kDir + "opencl/cp-unrollx8.ptx"));
  bool found = false;
  for (const auto& k : s.kernels) found |= k.name == "cp_unrollx8" && k.is_entry;
  EXPECT_TRUE(found);
}

// cp with each API's default math: CUDA divides and takes square roots with
// IEEE rounding, OpenCL with approximate SFU instructions.
TEST(GpuFixtures, CpPreciseMathDiffersBetweenTheApis) {
  const Stats cuda_stats = compute_stats(parse_file(kDir + "cuda/cp.ptx"));
  const Stats ocl_stats = compute_stats(parse_file(kDir + "opencl/cp-unrollx8.ptx"));
  const LoopStats cuda = biggest_loop(kernel(cuda_stats, "cp_unrollx8"));
  const LoopStats ocl = biggest_loop(kernel(ocl_stats, "cp_unrollx8"));
  EXPECT_GT(cuda.counts.of_class("div") + cuda.counts.of_class("sqrt"), 0);
  EXPECT_EQ(cuda.counts.of_class("sfu"), 0);
  EXPECT_GT(ocl.counts.of_class("sfu"), 0);
  EXPECT_EQ(ocl.counts.of_class("div") + ocl.counts.of_class("sqrt"), 0);
}

// MRI-Q with fast math: both compilers emit the same loop (k-values from
// constant memory, unrolled x2 as written, sin/cos on the SFU).
TEST(GpuFixtures, MriqFastLoopsMatch) {
  for (const auto* file : {"cuda/mriq-fast.ptx", "opencl/mriq-fast.ptx"}) {
    const Stats s = compute_stats(parse_file(kDir + file));
    const LoopStats loop = biggest_loop(kernel(s, "ComputeQ"));
    EXPECT_EQ(loop.unrolled_by, 2) << file;
    EXPECT_EQ(loop.counts.of_class("ld.const"), 8) << file;
    EXPECT_EQ(loop.counts.of_class("sfu"), 4) << file;
    EXPECT_EQ(loop.counts.of_class("fma.f32"), 8) << file;
  }
}

// In SASS the two differ: CUDA's __constant__ tile is read through the
// constant bank, OpenCL's __constant pointer through LDG.E.CONSTANT.
TEST(GpuFixtures, MriqFastSassReadsConstantsDifferently) {
  const auto read = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_sass(ss.str());
  };
  const SassStats cuda = read(kDir + "cuda/mriq-fast.sass");
  const SassStats ocl = read(kDir + "opencl/mriq-fast.sass");
  EXPECT_GT(ocl.total.of_class("ld.global"), 5 * cuda.total.of_class("ld.global"));
}

}  // namespace
}  // namespace gpucmp::ptx
