// pass_cleanup (ptx/passes.h) on the clang -O0 fixtures: no call or stack
// traffic left, re-parses, assembles, and memory/barrier/fma instructions are
// those of the kernel with callees expanded; matrixMul keeps its loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "ptx/cfg.h"
#include "ptx/parser.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptx_cleanup_fixtures.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

using test::any_note_contains;
using test::has_line;

// ---- the clang -O0 fixtures ---------------------------------------------------------

const std::string kO0 =
    std::string(GPUCMP_PTX_FIXTURES) + "/gpu/h200-driver580.159.04-nvcc13.0/opencl-O0/";

// The instructions cleanup must neither add nor lose, by kind.
std::string kind_of(const Instruction& ins) {
  for (const char* space : {"global", "shared", "const"})
    if ((ins.opcode == "ld" || ins.opcode == "st") && ins.has_modifier(space))
      return ins.opcode + "." + space;
  if (ins.opcode == "bar" && ins.has_modifier("sync")) return "bar.sync";
  return ins.opcode == "fma" || ins.opcode == "call" ? ins.opcode : "";
}

// Those counts for f with every call expanded into the callee's counts.
std::map<std::string, int> expanded_counts(const Module& m, const Function& f) {
  std::map<std::string, int> out;
  for (const Statement& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    const std::string kind = kind_of(s.instruction);
    if (kind != "call") {
      if (!kind.empty()) ++out[kind];
      continue;
    }
    for (const Operand& op : s.instruction.operands)
      for (const Function& callee : m.functions)  // the definition, not the prototype
        if (op.kind == Operand::Kind::Symbol && callee.name == op.name && callee.has_body)
          for (const auto& [k, n] : expanded_counts(m, callee)) out[k] += n;
  }
  return out;
}

bool is_stack_access(const Operand& op) {
  return op.kind == Operand::Kind::Memory && op.name.find("SP") != std::string::npos;
}

TEST(PtxPassCleanup, ClangO0Fixtures) {
  for (const char* name : {"matrixMul-tile16-cloptdisable.ptx", "cp-cloptdisable.ptx",
                           "cp-cloptdisableg.ptx", "mriq-cloptdisable.ptx"}) {
    SCOPED_TRACE(name);
    const Module original = parse_file(kO0 + name);
    Module m = original;
    const PassReport r = pass_cleanup(m);
    EXPECT_GT(r.changed, 0);
    const std::string text = print(m);
    EXPECT_EQ(print(parse(text, std::string(name) + " (cleaned)")), text);
    for (const Function& f : m.functions) {
      ASSERT_TRUE(f.is_entry) << f.name << " should have been inlined and removed";
      EXPECT_EQ(expanded_counts(m, f), expanded_counts(original, *original.find_function(f.name)));
      for (const Statement& s : f.body) {
        EXPECT_NE(s.instruction.opcode, "call") << print(s);
        EXPECT_FALSE(std::any_of(s.instruction.operands.begin(), s.instruction.operands.end(),
                                 is_stack_access))
            << f.name << ": " << print(s);  // mriq's sinf/cosf scratch arrays: through registers
        for (const Declarator& d : s.decl.declarators) {
          if (d.name.rfind("__local_depot", 0) != 0) continue;
          // Only an inlined callee's (sinf/cosf's scratch array), its address taken.
          EXPECT_TRUE(any_note_contains(r, d.name + " stays in memory: its address escapes"))
              << d.name;
        }
      }
    }
    std::string output;  // ptxas when found at configure time
    EXPECT_TRUE(ptxas_assembles(text, m.sm_target(), output)) << output;
  }
}

TEST(PtxPassCleanup, MatrixMulKeepsItsLoops) {
  Module m = parse_file(kO0 + "matrixMul-tile16-cloptdisable.ptx");
  pass_cleanup(m);
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& k = m.functions[0];
  EXPECT_EQ(find_loops(k).size(), 2u);  // the tile loop and the k loop, still rolled
  EXPECT_TRUE(has_line(k, "setp.lt.s32 %p3, %sl52, 16;"));         // k loop header
  EXPECT_TRUE(has_line(k, "fma.rn.f32 %sl44, %f4, %f5, %sl44;"));  // its one fma
  EXPECT_TRUE(has_line(k, "add.s32 %sl52, %sl52, 1;"));            // its latch
  EXPECT_TRUE(has_line(k, "add.s32 %sl48, %sl48, 16;"));           // the tile loop's latch
}

}  // namespace
}  // namespace gpucmp::ptx
