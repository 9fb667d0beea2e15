// The align pass (ptx/passes.h pass_align): which .shared declarations it
// raises to 16 bytes and which it keeps, on hand-written PTX; on the GPU
// fixtures, OpenCL's matrixMul tiles gain `.align 16` and every fixture still
// prints, re-parses and assembles (ptxas, when found) with its instructions
// untouched.
#include <gtest/gtest.h>

#include <stdexcept>
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

// A module with `globals` at module scope and kernel k: `decls` then `body`.
Module module_with(const std::string& globals, const std::string& decls, const std::string& body) {
  return parse(".version 9.0\n.target sm_90\n.address_size 64\n" + globals +
                   ".visible .entry k()\n{\n\t.reg .b32 %r<9>;\n\t.reg .f32 %f<9>;\n" +
                   "\t.reg .b64 %rd<9>;\n" + decls + body + "\tret;\n}\n",
               "align.ptx");
}

// A body that reads and writes shared memory through the address of `name`.
std::string shared_body(const std::string& name) {
  return "\tmov.u64 %rd1, " + name + ";\n\tld.shared.f32 %f1, [%rd1];\n" +
         "\tst.shared.f32 [%rd1+4], %f1;\n";
}

// The .align of the first declaration (module or body) that declares `name`; 0 if none.
long long alignment_of(const Module& m, const std::string& name) {
  const auto declares = [&name](const VarDecl& d) {
    for (const Declarator& v : d.declarators)
      if (v.name == name) return true;
    return false;
  };
  for (const ModuleItem& item : m.items)
    if (item.kind == ModuleItem::Kind::Variable && declares(item.variable))
      return item.variable.align.value_or(0);
  for (const Function& f : m.functions)
    for (const Statement& s : f.body)
      if (s.kind == Statement::Kind::VarDecl && declares(s.decl)) return s.decl.align.value_or(0);
  return 0;
}

bool any_note_has(const PassReport& r, const std::string& text) {
  for (const std::string& n : r.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

std::string all_notes(const PassReport& r) {
  std::string out;
  for (const std::string& n : r.notes) out += n + "\n";
  return out;
}

int total_instructions(const Module& m) {
  int n = 0;
  for (const Function& f : m.functions) n += count_instructions(f);
  return n;
}

// ---- hand-written PTX ---------------------------------------------------------

TEST(PtxPassAlign, RaisesFunctionScopeTileAccessedWithLdSt) {
  Module m = module_with("", "\t.shared .align 4 .b8 k_$_As[1024];\n", shared_body("k_$_As"));
  const PassReport r = pass_align(m);
  EXPECT_EQ(r.pass, "align");
  EXPECT_EQ(r.changed, 1);
  EXPECT_EQ(alignment_of(m, "k_$_As"), 16);
  EXPECT_TRUE(any_note_has(r, "k: k_$_As (1024 bytes) .align 4 -> 16")) << all_notes(r);
  EXPECT_NE(print(m).find(".shared .align 16 .b8 \tk_$_As[1024];"), std::string::npos) << print(m);
}

TEST(PtxPassAlign, RaisesModuleScopeArrayUsedDirectlyAndDefaultAlignment) {
  Module m = module_with(".shared .f32 tile[8];\n", "",
                         "\tld.shared.f32 %f1, [tile+4];\n\tst.shared.f32 [tile], %f1;\n");
  const PassReport r = pass_align(m);
  EXPECT_EQ(r.changed, 1);
  EXPECT_EQ(alignment_of(m, "tile"), 16);
  EXPECT_TRUE(any_note_has(r, "module: tile (32 bytes) .align 4 -> 16")) << all_notes(r);
}

TEST(PtxPassAlign, KeepsSizesThatAreNotMultiplesOf16) {
  Module m = module_with("", "\t.shared .align 4 .b8 odd[12];\n", shared_body("odd"));
  const PassReport r = pass_align(m);
  EXPECT_EQ(r.changed, 0);
  EXPECT_EQ(alignment_of(m, "odd"), 4);
  EXPECT_TRUE(any_note_has(r, "odd: 12 bytes, not a multiple of 16")) << all_notes(r);
}

TEST(PtxPassAlign, KeepsArraysNotAccessedWithLdStShared) {
  // Named, but the only memory access is global: nothing to vectorize in shared memory.
  Module m = module_with("", "\t.shared .align 4 .b8 idle[64];\n",
                         "\tmov.u64 %rd1, idle;\n\tld.global.f32 %f1, [%rd1];\n");
  const PassReport r = pass_align(m);
  EXPECT_EQ(r.changed, 0);
  EXPECT_EQ(alignment_of(m, "idle"), 4);
  EXPECT_TRUE(any_note_has(r, "idle: not accessed with ld/st.shared")) << all_notes(r);
  // Declared but never named in the body at all.
  Module unused = module_with("", "\t.shared .align 4 .b8 unused[64];\n", shared_body("other"));
  EXPECT_EQ(pass_align(unused).changed, 0);
}

TEST(PtxPassAlign, NeverLowersAnAlignment) {
  Module m =
      module_with("", "\t.shared .align 32 .b8 wide[1024];\n\t.shared .align 16 .b8 done[64];\n",
                  shared_body("wide") + shared_body("done"));
  const std::string before = print(m);
  const PassReport r = pass_align(m);
  EXPECT_EQ(r.changed, 0);
  EXPECT_EQ(alignment_of(m, "wide"), 32);
  EXPECT_EQ(alignment_of(m, "done"), 16);
  EXPECT_EQ(print(m), before);
}

TEST(PtxPassAlign, KeepsExternLocalAndMixedDeclarations) {
  Module m = module_with(".extern .shared .align 4 .b8 dynamic[];\n",
                         "\t.local .align 4 .b8 stack[64];\n\t.shared .align 4 .b8 a[64], b[20];\n",
                         shared_body("dynamic") + shared_body("a") + shared_body("b") +
                             "\tmov.u64 %rd2, stack;\n\tld.local.f32 %f2, [%rd2];\n");
  const std::string before = print(m);
  const PassReport r = pass_align(m);
  EXPECT_EQ(r.changed, 0) << all_notes(r);
  EXPECT_EQ(print(m), before);
  EXPECT_TRUE(any_note_has(r, "dynamic is .extern")) << all_notes(r);
  EXPECT_TRUE(any_note_has(r, "b: 20 bytes")) << all_notes(r);  // a alone would qualify
}

TEST(PtxPassAlign, SecondRunChangesNothing) {
  Module m = module_with("", "\t.shared .align 4 .b8 t[256];\n", shared_body("t"));
  EXPECT_EQ(pass_align(m).changed, 1);
  const std::string once = print(m);
  EXPECT_EQ(pass_align(m).changed, 0);
  EXPECT_EQ(print(m), once);
}

TEST(PtxPassAlign, RunPassesKnowsItAndNamesItInErrors) {
  const auto& known = known_passes();
  EXPECT_EQ(known, (std::vector<std::string>{"cleanup", "unroll", "cse", "mad", "licm", "align",
                                             "ftz", "shared32", "cpasync", "cpasync-nobar"}));
  Module m = module_with("", "\t.shared .align 4 .b8 t[256];\n", shared_body("t"));
  std::vector<PassReport> reports;
  const std::string header = run_passes(m, {"align"}, false, &reports);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].changed, 1);
  EXPECT_NE(header.find("// align: 1 changed (k: t (256 bytes) .align 4 -> 16)"), std::string::npos)
      << header;
  try {
    run_passes(m, {"aligned"}, false, nullptr);
    ADD_FAILURE() << "an unknown pass must throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("known: cleanup, unroll, cse, mad, licm, align"),
              std::string::npos)
        << e.what();
  }
}

// ---- the GPU fixtures ---------------------------------------------------------

// Text after the pass must re-parse to the same functions and assemble.
void expect_prints_parses_assembles(const Module& m, const std::string& header,
                                    const std::string& what) {
  const std::string text = header + print(m);
  const Module again = parse(text, what + " (aligned)");
  ASSERT_EQ(again.functions.size(), m.functions.size());
  for (std::size_t f = 0; f < m.functions.size(); ++f)
    EXPECT_EQ(print(again.functions[f]), print(m.functions[f]));
  std::string output;  // ptxas when found at configure time
  EXPECT_TRUE(ptxas_assembles(text, m.sm_target(), output)) << output;
}

TEST(PtxPassAlignFixtures, OpenClMatrixMulTilesGainAlign16) {
  for (const char* file : {"opencl/matrixMul-tile16.ptx", "opencl/matrixMul-tile32.ptx"}) {
    SCOPED_TRACE(file);
    Module m = parse_file(kGpuFixtures + file);
    ASSERT_EQ(alignment_of(m, "matrixMul_$_As"), 4);
    ASSERT_EQ(alignment_of(m, "matrixMul_$_Bs"), 4);
    const int instructions = total_instructions(m);
    std::vector<PassReport> reports;
    const std::string header = run_passes(m, {"align"}, false, &reports);
    EXPECT_EQ(reports.at(0).changed, 2) << header;
    EXPECT_EQ(alignment_of(m, "matrixMul_$_As"), 16);
    EXPECT_EQ(alignment_of(m, "matrixMul_$_Bs"), 16);
    EXPECT_EQ(total_instructions(m), instructions);
    EXPECT_NE(print(m).find(".shared .align 16 .b8 \tmatrixMul_$_As["), std::string::npos);
    expect_prints_parses_assembles(m, header, file);
  }
}

TEST(PtxPassAlignFixtures, EndOfTheAutoChainOnTheO0Ptx) {
  const std::string file = "opencl-O0/matrixMul-tile16-cloptdisable.ptx";
  Module m = parse_file(kGpuFixtures + file);
  std::vector<PassReport> reports;
  const std::string header =
      run_passes(m, {"cleanup", "unroll", "cse", "mad", "licm", "align"}, true, &reports);
  ASSERT_EQ(reports.size(), 6u);
  EXPECT_EQ(reports.back().changed, 2) << header;
  EXPECT_EQ(alignment_of(m, "matrixMul_$_As"), 16);
  EXPECT_EQ(alignment_of(m, "matrixMul_$_Bs"), 16);
  expect_prints_parses_assembles(m, header, file);
}

// Every fixture: align alone leaves the instructions as they were, lowers no
// alignment, and the output still prints, parses and assembles. nvcc's
// matrixMul tiles (.align 4, 1024 bytes) are raised too; kernels without
// .shared arrays (cp, mriq, mrifhd) are untouched.
TEST(PtxPassAlignFixtures, EveryFixture) {
  const auto files = list_files(GPUCMP_PTX_FIXTURES);
  ASSERT_GE(files.size(), 10u);
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    const Module original = parse_file(path);
    Module m = original;
    const std::string header = run_passes(m, {"align"}, false, nullptr);
    EXPECT_EQ(total_instructions(m), total_instructions(original));
    for (std::size_t f = 0; f < m.functions.size(); ++f) {
      for (std::size_t s = 0; s < m.functions[f].body.size(); ++s) {
        const Statement& before = original.functions[f].body[s];
        const Statement& after = m.functions[f].body[s];
        if (before.kind == Statement::Kind::VarDecl) {
          EXPECT_GE(after.decl.align.value_or(0), before.decl.align.value_or(0));
        }
      }
    }
    if (path.find("/cp") != std::string::npos || path.find("/mri") != std::string::npos) {
      EXPECT_EQ(print(m), print(original));
    }
    expect_prints_parses_assembles(m, header, path);
  }
}

}  // namespace
}  // namespace gpucmp::ptx
