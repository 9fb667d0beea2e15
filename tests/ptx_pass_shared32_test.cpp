// The shared32 pass (ptx/passes.h pass_shared32): 64-bit .shared addressing
// rewritten to 32-bit, on hand-written PTX (a symbol alone, symbol + offset
// chains, a pointer also used otherwise, vector and atomic accesses, loops,
// guards, parameters, functions it must leave alone), and on OpenCL's
// matrixMul PTX from the H200: every .shared access reads a 32-bit register,
// the address chain is nvcc's (mov.u32 tile; mul.lo.s32; add.s32), and the
// module still assembles (ptxas, when found). A second run changes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "ptx/files.h"
#include "ptx/parser.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

const std::string kGpuFixtures =
    std::string(GPUCMP_PTX_FIXTURES) + "/gpu/h200-driver580.159.04-nvcc13.0/";

// A module with kernel k(.param .u64 k_out): its registers, a 1 KiB tile, then `body`.
Module kernel(const std::string& body, const std::string& globals = "") {
  return parse(
      ".version 9.0\n.target sm_90\n.address_size 64\n" + globals +
          ".visible .entry k(.param .u64 k_out)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n"
          "\t.reg .f32 %f<9>;\n\t.reg .b64 %rd<12>;\n\t.shared .align 16 .b8 tile[1024];\n" +
          body + "\tret;\n}\n",
      "shared32.ptx");
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

std::string all_notes(const PassReport& r) {
  std::string out;
  for (const std::string& n : r.notes) out += n + "\n";
  return out;
}

// .shared accesses (ld/st/atom/red, .shared::cta too) whose address is a 64-bit register.
int accesses_through_64bit(const std::string& text) {
  static const std::regex access(R"((ld|st|atom|red)\.[^\s]*shared[^\s]*\s[^;]*\[%rd[0-9]+)");
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), access),
                                        std::sregex_iterator()));
}

// Runs the pass, checks that the result assembles and that a second run changes nothing.
PassReport run_checked(Module& m) {
  PassReport r = pass_shared32(m);
  const std::string text = print(m);
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, "sm_90", output)) << output << "\n" << text;
  EXPECT_EQ(accesses_through_64bit(text), 0) << text;
  const PassReport again = pass_shared32(m);
  EXPECT_EQ(again.changed, 0) << all_notes(again);
  EXPECT_EQ(print(m), text);
  return r;
}

// ---- hand-written PTX ---------------------------------------------------------

TEST(PtxPassShared32, SymbolAloneBecomesMovU32) {
  Module m = kernel(
      "\tmov.u64 %rd1, tile;\n\tld.shared.f32 %f1, [%rd1];\n\tst.shared.f32 [%rd1+4], %f1;\n");
  const PassReport r = run_checked(m);
  EXPECT_EQ(r.pass, "shared32");
  EXPECT_EQ(r.changed, 2) << all_notes(r);
  const std::string text = print(m);
  EXPECT_TRUE(has(text, "mov.u32 \t%rsh0, tile;")) << text;
  EXPECT_TRUE(has(text, "ld.shared.f32 \t%f1, [%rsh0];")) << text;
  EXPECT_TRUE(has(text, "st.shared.f32 \t[%rsh0+4], %f1;")) << text;
  EXPECT_TRUE(has(text, ".reg .b32 \t%rsh<1>;")) << text;
  EXPECT_FALSE(has(text, "mov.u64")) << text;
  EXPECT_TRUE(has(all_notes(r), "k: 2 .shared accesses to 32-bit addresses (2 through 1 address"))
      << all_notes(r);
}

TEST(PtxPassShared32, SymbolPlusOffsetChainIsRebuiltAsNvccWritesIt) {
  // OpenCL's tile addressing: row offset mul.wide, column offset mul.wide, two adds.
  Module m = kernel(
      "\tmul.wide.s32 %rd1, %r1, 128;\n\tmov.u64 %rd2, tile;\n\tadd.s64 %rd3, %rd2, %rd1;\n"
      "\tmul.wide.s32 %rd4, %r2, 4;\n\tadd.s64 %rd5, %rd3, %rd4;\n\tst.shared.f32 [%rd5], %f1;\n"
      "\tld.shared.f32 %f2, [%rd3+64];\n\tsub.s64 %rd6, %rd5, 8;\n\tld.shared.f32 %f3, [%rd6];\n");
  const PassReport r = run_checked(m);
  EXPECT_EQ(r.changed, 3) << all_notes(r);
  const std::string text = print(m);
  EXPECT_EQ(count(text, "mul.wide"), 0) << text;  // their only readers were the adds
  EXPECT_EQ(count(text, "add.s64"), 0) << text;
  EXPECT_EQ(count(text, "mul.lo.s32"), 2) << text;
  EXPECT_EQ(count(text, "add.s32"), 2) << text;
  EXPECT_EQ(count(text, "sub.s32"), 1) << text;
  EXPECT_EQ(count(text, "cvt.u32.u64"), 0) << text;
  EXPECT_TRUE(has(text, "mul.lo.s32 \t%rsh")) << text;
  EXPECT_TRUE(
      has(all_notes(r), "(3 through 4 address registers rebuilt in 32 bits, 0 on a 32-bit copy"))
      << all_notes(r);
}

TEST(PtxPassShared32, O0OffsetsAndOffsetsAlsoUsedForGlobalMemory) {
  // -O0's cvt.s64.s32 + shl.b64 offsets; %rd1 also addresses global memory, so it stays.
  Module m = kernel(
      "\tld.param.u64 %rd9, [k_out];\n\tcvt.s64.s32 %rd1, %r1;\n\tshl.b64 %rd2, %rd1, 2;\n"
      "\tmov.u64 %rd3, tile;\n\tadd.s64 %rd4, %rd3, %rd2;\n\tld.shared.f32 %f1, [%rd4];\n"
      "\tadd.s64 %rd5, %rd9, %rd2;\n\tst.global.f32 [%rd5], %f1;\n");
  const PassReport r = run_checked(m);
  EXPECT_EQ(r.changed, 1) << all_notes(r);
  const std::string text = print(m);
  EXPECT_TRUE(has(text, "shl.b64 \t%rd2, %rd1, 2;")) << text;  // still read by the global address
  EXPECT_EQ(count(text, "shl.b32"), 1) << text;
  EXPECT_EQ(count(text, "mov.b32"), 1) << text;  // the twin of cvt.s64.s32
  EXPECT_TRUE(has(text, "add.s64 \t%rd5, %rd9, %rd2;")) << text;
}

TEST(PtxPassShared32, PointerAlsoReadOtherwiseGetsCvtBeforeEachAccess) {
  Module m = kernel(
      "\tld.param.u64 %rd9, [k_out];\n\tmov.u64 %rd1, tile;\n\tst.global.u64 [%rd9], %rd1;\n"
      "\tld.shared.f32 %f1, [%rd1+8];\n\tadd.s64 %rd2, %rd1, 16;\n\tst.shared.f32 [%rd2], %f1;\n"
      "\tsetp.eq.s64 %p1, %rd2, 0;\n");
  const PassReport r = run_checked(m);
  EXPECT_EQ(r.changed, 2) << all_notes(r);
  const std::string text = print(m);
  EXPECT_TRUE(has(text, "mov.u64 \t%rd1, tile;")) << text;
  EXPECT_TRUE(has(text, "st.global.u64 \t[%rd9], %rd1;")) << text;
  EXPECT_EQ(count(text, "cvt.u32.u64"), 2) << text;
  EXPECT_TRUE(has(text, "cvt.u32.u64 \t%rsh0, %rd1;\n\tld.shared.f32 \t%f1, [%rsh0+8];")) << text;
  EXPECT_TRUE(has(all_notes(r), "%rd1 stays 64-bit: also read by 'st.global.u64'")) << all_notes(r);
  EXPECT_TRUE(has(all_notes(r), "%rd2 stays 64-bit: also read by 'setp.eq.s64'")) << all_notes(r);
}

TEST(PtxPassShared32, VectorAtomicReductionAndSharedCtaAccesses) {
  Module m = kernel(
      "\tmov.u64 %rd1, tile;\n\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n"
      "\tst.shared.v2.f32 [%rd1+32], {%f1, %f2};\n\tatom.shared.add.u32 %r1, [%rd1+48], 1;\n"
      "\tred.shared.add.u32 [%rd1+52], %r1;\n\tld.shared::cta.u32 %r2, [%rd1+56];\n"
      "\tld.volatile.shared.u32 %r3, [%rd1+60];\n");
  const PassReport r = run_checked(m);
  EXPECT_EQ(r.changed, 6) << all_notes(r);
  const std::string text = print(m);
  EXPECT_TRUE(has(text, "ld.shared.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rsh0+16];")) << text;
  EXPECT_TRUE(has(text, "atom.shared.add.u32 \t%r1, [%rsh0+48], 1;")) << text;
  EXPECT_TRUE(has(text, "red.shared.add.u32 \t[%rsh0+52], %r1;")) << text;
  EXPECT_TRUE(has(text, "ld.shared::cta.u32 \t%r2, [%rsh0+56];")) << text;
}

TEST(PtxPassShared32, LoopCarriedPointerAndGuardedDefinitions) {
  Module m = kernel(
      "\tmov.u64 %rd1, tile;\n\tmul.wide.u32 %rd2, %r1, 4;\n\t@%p1 mul.wide.u32 %rd2, %r2, 4;\n"
      "\tadd.s64 %rd3, %rd1, %rd2;\n\tmov.u32 %r3, 0;\n$L__loop:\n\tld.shared.f32 %f1, [%rd3];\n"
      "\tadd.s64 %rd3, %rd3, 4;\n\tadd.s32 %r3, %r3, 1;\n\tsetp.lt.u32 %p2, %r3, 8;\n"
      "\t@%p2 bra $L__loop;\n");
  const PassReport r = run_checked(m);
  EXPECT_EQ(r.changed, 1) << all_notes(r);
  const std::string text = print(m);
  EXPECT_TRUE(has(text, "@%p1 mul.lo.u32")) << text;  // the twin keeps its definition's guard
  EXPECT_EQ(count(text, "mul.lo.u32"), 2) << text;
  EXPECT_EQ(count(text, "mul.wide"), 0) << text;
  std::smatch step;
  ASSERT_TRUE(
      std::regex_search(text, step, std::regex(R"(add\.s32 \t(%rsh[0-9]+), (%rsh[0-9]+), 4;)")))
      << text;
  EXPECT_EQ(step[1], step[2]) << text;  // the pointer still steps itself
}

TEST(PtxPassShared32, ModuleScopeSymbolsAndParameters) {
  Module m = parse(
      ".version 9.0\n.target sm_90\n.address_size 64\n.shared .align 4 .b8 buf[64];\n"
      ".func f(.reg .u64 p)\n{\n\t.reg .f32 %f<2>;\n\tld.shared.f32 %f1, [p+4];\n\tret;\n}\n"
      ".visible .entry k()\n{\n\t.reg .b64 %rd<3>;\n\t.reg .f32 %f<2>;\n\tmov.u64 %rd1, buf;\n"
      "\tcvta.shared.u64 %rd0, %rd1;\n\tcvta.to.shared.u64 %rd2, %rd0;\n\tld.shared.f32 %f1, "
      "[%rd1];\n\tst.shared.f32 [%rd2], %f1;\n"
      "\tret;\n}\n",
      "module.ptx");
  const PassReport r = run_checked(m);
  EXPECT_EQ(r.changed, 3) << all_notes(r);
  const std::string text = print(m);
  EXPECT_TRUE(has(text, "cvt.u32.u64 \t%rsh0, p;")) << text;
  EXPECT_TRUE(has(all_notes(r), "p stays 64-bit: a parameter")) << all_notes(r);
  // %rd1 feeds cvta (not an address step), so it keeps its 64-bit form; so does %rd2.
  EXPECT_TRUE(has(all_notes(r), "%rd1 stays 64-bit: also read by 'cvta.shared.u64'"))
      << all_notes(r);
  EXPECT_TRUE(has(all_notes(r), "%rd2 stays 64-bit: defined by 'cvta.to.shared.u64'"))
      << all_notes(r);
}

TEST(PtxPassShared32, LeavesFunctionsWithout64BitSharedAddressingAlone) {
  // nvcc's form already, global memory through 64-bit registers, a direct symbol
  // address, and another CTA's shared memory.
  Module m = kernel(
      "\tmov.u32 %r1, tile;\n\tld.shared.f32 %f1, [%r1+4];\n\tld.param.u64 %rd1, [k_out];\n"
      "\tst.global.f32 [%rd1], %f1;\n\tst.shared.f32 [tile+8], %f1;\n"
      "\tmov.u64 %rd2, tile;\n\tmapa.shared::cluster.u64 %rd3, %rd2, 1;\n"
      "\tld.shared::cluster.f32 %f2, [%rd3];\n");
  const std::string before = print(m);
  const PassReport r = pass_shared32(m);
  EXPECT_EQ(r.changed, 0) << all_notes(r);
  EXPECT_EQ(print(m), before);
  EXPECT_TRUE(has(all_notes(r), "2 instructions on .shared::cluster left alone")) << all_notes(r);
}

TEST(PtxPassShared32, FreshRegisterNamesDoNotCollide) {
  Module m = kernel(
      "\t.reg .b32 %rsh<2>;\n\tmov.u32 %rsh1, 0;\n\tmov.u64 %rd1, tile;\n"
      "\tst.shared.u32 [%rd1], %rsh1;\n");
  const PassReport r = run_checked(m);
  EXPECT_EQ(r.changed, 1) << all_notes(r);
  EXPECT_TRUE(has(print(m), "st.shared.u32 \t[%rsh_0], %rsh1;")) << print(m);
}

TEST(PtxPassShared32, RunPassesKnowsItByName) {
  const auto& known = known_passes();
  EXPECT_NE(std::find(known.begin(), known.end(), "shared32"), known.end());
  Module m = kernel("\tmov.u64 %rd1, tile;\n\tld.shared.f32 %f1, [%rd1];\n");
  std::vector<PassReport> reports;
  const std::string header = run_passes(m, {"shared32"}, false, &reports);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].pass, "shared32");
  EXPECT_EQ(reports[0].changed, 1);
  EXPECT_TRUE(has(header, "// shared32: 1 changed (k: 1 .shared accesses")) << header;
}

// ---- the GPU fixtures ---------------------------------------------------------

TEST(PtxPassShared32Fixtures, OpenClMatrixMulTilesAddressSharedMemoryIn32Bits) {
  for (const char* file : {"opencl/matrixMul-tile16.ptx", "opencl/matrixMul-tile32.ptx"}) {
    SCOPED_TRACE(file);
    Module m = parse_file(kGpuFixtures + file);
    const std::string before = print(m);
    const int accesses = count(before, "ld.shared.") + count(before, "st.shared.");
    ASSERT_GT(accesses, 0);
    ASSERT_EQ(accesses_through_64bit(before), accesses);
    std::vector<PassReport> reports;
    const std::string header = run_passes(m, {"shared32"}, false, &reports);
    EXPECT_EQ(reports.at(0).changed, accesses) << header;
    const std::string text = print(m);
    EXPECT_EQ(accesses_through_64bit(text), 0) << text;
    EXPECT_EQ(count(text, "cvt.u32.u64"), 0) << text;  // every tile pointer rebuilt, none converted
    EXPECT_EQ(count(text, "mov.u64 \t%rd"), count(before, "mov.u64 \t%rd") - 2) << text;
    EXPECT_EQ(count(text, "mov.u32 \t%rsh"), 2) << text;  // As and Bs
    const Module again = parse(header + text, std::string(file) + " (shared32)");
    ASSERT_EQ(again.functions.size(), 1u);
    EXPECT_EQ(print(again.functions[0]), print(m.functions[0]));
    std::string output;
    EXPECT_TRUE(ptxas_assembles(header + text, m.sm_target(), output)) << output;
    EXPECT_EQ(pass_shared32(m).changed, 0);
    EXPECT_EQ(print(m), text);
  }
}

TEST(PtxPassShared32Fixtures, AfterCleanupOnTheO0Ptx) {
  Module m = parse_file(kGpuFixtures + "opencl-O0/matrixMul-tile16-cloptdisable.ptx");
  std::vector<PassReport> reports;
  const std::string header = run_passes(m, {"cleanup", "shared32"}, false, &reports);
  EXPECT_EQ(reports.at(1).changed, 4) << header;
  const std::string text = print(m);
  EXPECT_EQ(accesses_through_64bit(text), 0) << text;
  std::string output;
  EXPECT_TRUE(ptxas_assembles(header + text, m.sm_target(), output)) << output;
}

TEST(PtxPassShared32Fixtures, OtherGpuFixturesHaveNoSharedAddressingToChange) {
  for (const char* file :
       {"opencl/cp-unrollx8-fast.ptx", "opencl/mriq-fast.ptx", "opencl/mrifhd-fast.ptx"}) {
    SCOPED_TRACE(file);
    Module m = parse_file(kGpuFixtures + file);
    const std::string before = print(m);
    EXPECT_EQ(pass_shared32(m).changed, 0);
    EXPECT_EQ(print(m), before);
  }
}

}  // namespace
}  // namespace gpucmp::ptx
