// Instruction-mix statistics: classes, loops, unroll estimates, JSON, tables,
// SASS counts.
#include <gtest/gtest.h>

#include "ptx/classify.h"
#include "ptx/parser.h"
#include "ptx/stats.h"
#include "ptx/unroll.h"

namespace gpucmp::ptx {
namespace {

const std::string kFixtures = GPUCMP_PTX_FIXTURES;

KernelStats only_kernel(const std::string& fixture) {
  const Stats s = compute_stats(parse_file(kFixtures + "/" + fixture));
  EXPECT_EQ(s.kernels.size(), 1u);
  return s.kernels.at(0);
}

TEST(PtxStats, KnownCountsOfAStraightLineKernel) {
  const KernelStats k = only_kernel("handwritten/counts.ptx");
  EXPECT_EQ(k.name, "scale_add");
  EXPECT_TRUE(k.is_entry);
  EXPECT_EQ(k.all.of_class("fma.f32"), 2);
  EXPECT_EQ(k.all.of_class("ld.shared"), 1);
  EXPECT_EQ(k.all.of_class("st.shared"), 1);
  EXPECT_EQ(k.all.of_class("ld.global"), 2);
  EXPECT_EQ(k.all.of_class("st.global"), 1);
  EXPECT_EQ(k.all.of_class("ld.param"), 4);
  EXPECT_EQ(k.all.of_class("bar"), 1);
  EXPECT_EQ(k.all.of_class("mov"), 4);
  EXPECT_EQ(k.all.of_class("int.addr"), 9);
  EXPECT_EQ(k.all.of_class("other"), 2);  // xor, ret
  EXPECT_EQ(k.all.total, 27);
  EXPECT_EQ(k.all.by_opcode.at("fma.rn.f32"), 2);
  EXPECT_EQ(k.all.by_opcode.at("ld.global.nc.f32"), 1);
  EXPECT_EQ(k.registers,
            (std::map<std::string, long long>{{"pred", 2}, {"f32", 7}, {"b32", 9}, {"b64", 9}}));
  EXPECT_TRUE(k.loops.empty());
  EXPECT_EQ(k.in_loops.total, 0);
}

TEST(PtxStats, UnrolledLoopAndRemainder) {
  const KernelStats k = only_kernel("handwritten/unroll4.ptx");
  ASSERT_EQ(k.loops.size(), 2u);
  EXPECT_EQ(k.loops[0].header, "$L__BB0_2");
  EXPECT_EQ(k.loops[0].unrolled_by, 4);
  EXPECT_EQ(k.loops[0].counts.of_class("fma.f32"), 4);
  EXPECT_EQ(k.loops[0].counts.of_class("ld.global"), 8);
  EXPECT_EQ(k.loops[0].instructions, 17);
  EXPECT_EQ(k.loops[1].header, "$L__BB0_4");
  EXPECT_EQ(k.loops[1].unrolled_by, 1);
  EXPECT_EQ(k.loops[1].depth, 1);
  EXPECT_EQ(k.in_loops.of_class("fma.f32"), 5);
  EXPECT_EQ(k.all.of_class("fma.f32"), 5);
  EXPECT_EQ(k.in_loops.total, k.loops[0].instructions + k.loops[1].instructions);
}

TEST(PtxStats, NestedLoopDepths) {
  const KernelStats k = only_kernel("handwritten/nested_loops.ptx");
  ASSERT_EQ(k.loops.size(), 2u);
  EXPECT_EQ(k.loops[0].depth, 1);
  EXPECT_EQ(k.loops[1].depth, 2);
  EXPECT_EQ(k.loops[1].parent, 0);
  EXPECT_EQ(k.loops[1].instructions, 8);
  EXPECT_EQ(k.loops[0].instructions, 8 + 1 + 1 + 3);  // inner + mov + bra.uni + latch
  EXPECT_EQ(k.loops[1].counts.of_class("add.f32"), 1);
}

TEST(PtxStats, NvccMatrixMulTile16) {
  const Stats s = compute_stats(parse_file(kFixtures + "/nvcc-local/matrixmul.ptx"));
  ASSERT_EQ(s.kernels.size(), 2u);
  const KernelStats& k = s.kernels[0];
  EXPECT_EQ(k.in_loops.of_class("fma.f32"), 16);
  EXPECT_EQ(k.in_loops.of_class("ld.shared"), 32);
  ASSERT_EQ(k.loops.size(), 1u);
  EXPECT_EQ(k.loops[0].unrolled_by, 1);  // the tile loop; the k loop is fully unrolled
  EXPECT_EQ(s.kernels[1].in_loops.of_class("fma.f32"), 32);
}

TEST(PtxStats, NvccUnrolledLoops) {
  const Stats cp = compute_stats(parse_file(kFixtures + "/nvcc-local/cp.ptx"));
  ASSERT_FALSE(cp.kernels.at(0).loops.empty());
  EXPECT_EQ(cp.kernels[0].loops[0].unrolled_by, 4);  // cp_base: atoms unrolled 4x
  const Stats mriq = compute_stats(parse_file(kFixtures + "/nvcc-local/mriq-fast.ptx"));
  EXPECT_EQ(mriq.kernels.at(1).loops.at(0).unrolled_by, 2);
}

Instruction instruction(const std::string& line) {
  const Module m = parse(".entry k() {\n" + line + "\n}\n", "one.ptx");
  return m.functions.at(0).body.at(0).instruction;
}

TEST(PtxStats, Classes) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];", "ld.global"},
      {"ldu.global.f32 %f1, [%rd1];", "ld.global"},
      {"ld.shared::cta.f32 %f1, [%r1];", "ld.shared"},
      {"ld.const.f32 %f1, [c];", "ld.const"},
      {"ld.param.u64 %rd1, [p];", "ld.param"},
      {"ld.local.u32 %r1, [%SPL];", "ld.local"},
      {"ld.f32 %f1, [%rd1];", "ld.other"},
      {"st.local.u32 [%SPL], %r1;", "st.local"},
      {"st.param.b32 [param0+0], %r1;", "st.other"},
      {"st.f32 [%rd1], %f1;", "st.other"},
      {"fma.rn.ftz.f32 %f1, %f2, %f3, %f4;", "fma.f32"},
      {"fma.rn.f64 %fd1, %fd2, %fd3, %fd4;", "fma.f64"},
      {"mad.rn.f32 %f1, %f2, %f3, %f4;", "mad.f32"},
      {"mad.lo.s32 %r1, %r2, %r3, %r4;", "int.addr"},
      {"mul.wide.s32 %rd1, %r1, 4;", "int.addr"},
      {"mul.rn.f32 %f1, %f2, %f3;", "mul.f32"},
      {"add.f64 %fd1, %fd2, %fd3;", "add.f64"},
      {"sub.f32 %f1, %f2, %f3;", "sub.f32"},
      {"add.s64 %rd1, %rd2, %rd3;", "int.addr"},
      {"shl.b32 %r1, %r2, 2;", "int.addr"},
      {"cvta.to.global.u64 %rd1, %rd2;", "int.addr"},
      {"sin.approx.ftz.f32 %f1, %f2;", "sfu"},
      {"rsqrt.approx.f32 %f1, %f2;", "sfu"},
      {"sqrt.approx.f32 %f1, %f2;", "sfu"},
      {"rcp.approx.ftz.f64 %fd1, %fd2;", "sfu"},
      {"ex2.approx.f32 %f1, %f2;", "sfu"},
      {"tanh.approx.f32 %f1, %f2;", "sfu"},
      {"sqrt.rn.f32 %f1, %f2;", "sqrt"},
      {"div.rn.f32 %f1, %f2, %f3;", "div"},
      {"div.s32 %r1, %r2, %r3;", "div"},
      {"rcp.rn.f32 %f1, %f2;", "div"},
      {"setp.lt.s32 %p1, %r1, %r2;", "setp"},
      {"@%p1 bra $L;", "bra"},
      {"cvt.rn.f32.s32 %f1, %r1;", "cvt"},
      {"mov.u32 %r1, %tid.x;", "mov"},
      {"call.uni (retval0), f, (param0);", "call"},
      {"bar.sync 0;", "bar"},
      {"barrier.sync 0;", "bar"},
      {"selp.f32 %f1, %f2, %f3, %p1;", "other"},
      {"add.f16 %h1, %h2, %h3;", "other"},
      {"ret;", "other"},
  };
  for (const auto& [line, cls] : cases)
    EXPECT_EQ(instruction_class(instruction(line)), cls) << line;
  for (const auto& [line, cls] : cases) {
    const auto& names = class_names();
    EXPECT_NE(std::find(names.begin(), names.end(), cls), names.end()) << cls;
  }
}

TEST(PtxStats, RepetitionCount) {
  using V = std::vector<std::string>;
  EXPECT_EQ(repetition_count(V{}), 1);
  EXPECT_EQ(repetition_count(V{"a"}), 1);
  EXPECT_EQ(repetition_count(V{"a", "b", "a", "b", "a", "b"}), 3);
  EXPECT_EQ(repetition_count(V{"a", "b", "a", "c"}), 1);
  EXPECT_EQ(repetition_count(V{"a", "a", "a", "a"}), 4);
  EXPECT_EQ(repetition_count(V{"a", "b", "a", "b", "a"}), 1);
}

TEST(PtxStats, JsonShape) {
  const nlohmann::json j =
      to_json(compute_stats(parse_file(kFixtures + "/handwritten/unroll4.ptx")));
  EXPECT_EQ(j.at("file").get<std::string>(), kFixtures + "/handwritten/unroll4.ptx");
  const auto& k = j.at("kernels").at(0);
  EXPECT_EQ(k.at("name"), "dot4");
  EXPECT_EQ(k.at("entry"), true);
  EXPECT_EQ(k.at("instructions"), 41);
  EXPECT_EQ(k.at("by_class").at("fma.f32"), 5);
  EXPECT_EQ(k.at("by_opcode").at("fma.rn.f32"), 5);
  EXPECT_EQ(k.at("registers").at("f32"), 20);
  EXPECT_EQ(k.at("in_loops").at("by_class").at("fma.f32"), 5);
  EXPECT_EQ(k.at("loops").at(0).at("unrolled_by"), 4);
  EXPECT_EQ(k.at("loops").at(0).at("header"), "$L__BB0_2");
  EXPECT_EQ(k.at("loops").at(0).at("depth"), 1);
}

TEST(PtxStats, Table) {
  const std::string table =
      to_table(compute_stats(parse_file(kFixtures + "/handwritten/unroll4.ptx")));
  EXPECT_NE(table.find("kernel dot4 (.entry)"), std::string::npos) << table;
  EXPECT_NE(table.find("registers: b32 8, b64 10, f32 20, pred 4"), std::string::npos) << table;
  EXPECT_NE(table.find("fma.f32      5         5"), std::string::npos) << table;
  EXPECT_NE(table.find("$L__BB0_2      1            17            4"), std::string::npos) << table;
}

TEST(PtxStats, PrototypesHaveNoStats) {
  const Stats s =
      compute_stats(parse(".version 9.0\n.target sm_90\n.extern .func f();\n", "p.ptx"));
  EXPECT_TRUE(s.kernels.empty());
  EXPECT_EQ(to_table(s), "");
}

TEST(PtxSass, CountsInstructionLines) {
  const SassStats s = parse_sass(R"(
	code for sm_90
		Function : _Z9matrixMulPfPKfS1_i
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                   /* 0x00000a00ff017b82 */
                                                                            /* 0x000fe40000000800 */
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0030*/              @!P0 BRA 0x60 ;
        /*0040*/                   LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;
        /*0050*/                   FFMA R4, R2, R3, R4 ;
        /*0060*/                   LDS R5, [R0+0x4] ;
        /*0070*/                   MUFU.RSQ R6, R5 ;
        /*0080*/                   IMAD.WIDE R2, R0, 0x4, R2 ;
        /*0090*/                   ISETP.GE.AND P0, PT, R0, 0x10, PT ;
        /*00a0*/                   STG.E desc[UR4][R2.64], R4 ;
        /*00b0*/                   EXIT ;
        /*00c0*/                   NOP;
		Function : second
        /*0000*/                   FFMA R1, R1, R1, R1 ;
)");
  ASSERT_EQ(s.functions.size(), 2u);
  EXPECT_EQ(s.functions[0].name, "_Z9matrixMulPfPKfS1_i");
  const OpcodeCounts& c = s.functions[0].counts;
  EXPECT_EQ(c.total, 12);
  EXPECT_EQ(c.of_class("ld.const"), 2);
  EXPECT_EQ(c.of_class("mov"), 1);
  EXPECT_EQ(c.of_class("bra"), 1);
  EXPECT_EQ(c.of_class("ld.global"), 1);
  EXPECT_EQ(c.of_class("fma.f32"), 1);
  EXPECT_EQ(c.of_class("ld.shared"), 1);
  EXPECT_EQ(c.of_class("sfu"), 1);
  EXPECT_EQ(c.of_class("int.addr"), 1);
  EXPECT_EQ(c.of_class("setp"), 1);
  EXPECT_EQ(c.of_class("st.global"), 1);
  EXPECT_EQ(c.of_class("other"), 1);
  EXPECT_EQ(c.by_opcode.at("LDG.E.128.CONSTANT"), 1);
  EXPECT_EQ(s.functions[1].counts.total, 1);
  EXPECT_EQ(s.total.total, 13);
  EXPECT_EQ(s.total.of_class("fma.f32"), 2);
  EXPECT_EQ(to_json(s).at("functions").at(1).at("name"), "second");
}

TEST(PtxSass, ToleratesGarbage) {
  EXPECT_EQ(parse_sass("").total.total, 0);
  EXPECT_EQ(parse_sass("/*").total.total, 0);
  EXPECT_EQ(parse_sass("/*0010*/").total.total, 0);
  EXPECT_EQ(parse_sass("/*0010*/ @P0").total.total, 0);
  // 14 bytes, a NUL at each end.
  EXPECT_EQ(parse_sass(std::string("\0\xff/*zz*/ FFMA\0", 14)).total.total, 0);
  EXPECT_EQ(sass_class("DFMA"), "fma.f64");
  EXPECT_EQ(sass_class("SHF.L.U32"), "int.addr");
  EXPECT_EQ(sass_class("SHF.R.U32.HI"), "other");
  EXPECT_EQ(sass_class("F2F.F32.F64"), "cvt");
}

}  // namespace
}  // namespace gpucmp::ptx
