// The OpenCL program table (opencl/programs.h): unique names, every derived
// program pointing at a source program, the auto chain's names and pass lists
// (align its fifth step), the ptx-align, ptx-ftz and ptx-shared32 controls,
// the aligned matrixMul variants paired with the CUDA list
// (harness/workloads/sdk/matrixmul.h), and the forms that close compiler-made
// gaps (cp and MRI by value, cp and MRI prefetch, reduce's register cap).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "agpu/scan_builds.h"
#include "errors.h"
#include "nvcc_ptx.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "ptx/opencl_abi.h"
#include "ptx/parser.h"
#include "ptx/pass_registry.h"
#include "ptx/passes.h"
#include "workloads/sdk/matrixmul.h"

namespace gpucmp::opencl {
namespace {

// The source programs that have a PTX chain (docs/studies/ptx-passes.md).
const std::vector<std::pair<std::string, std::string>> kChainBases = {{"matrixMul", "tile16"},
                                                                      {"matrixMul", "tile32"},
                                                                      {"cp", "unrollx8"},
                                                                      {"mriq", "precise"},
                                                                      {"mrifhd", "precise"}};

TEST(OpenClPrograms, NamesAreUnique) {
  std::set<std::string> names;
  for (const ProgramSpec& s : program_specs())
    EXPECT_TRUE(names.insert(s.workload + "/" + s.variant).second)
        << "two programs named " << s.workload << "/" << s.variant;
}

TEST(OpenClPrograms, EveryDerivedProgramHasItsSourceBase) {
  for (const ProgramSpec& s : program_specs()) {
    SCOPED_TRACE(s.workload + "/" + s.variant);
    const ProgramSpec& base = program_spec(s.workload, s.base);
    EXPECT_EQ(base.from, ProgramFrom::source);
    EXPECT_EQ(s.file, base.file);
    EXPECT_EQ(s.options, base.options) << "a PTX variant builds with its source's options";
    if (s.from == ProgramFrom::source) {
      EXPECT_EQ(s.base, s.variant);
    }
  }
  EXPECT_THROW(program_spec("matrixMul", "tile64"), ApiError);
}

TEST(OpenClPrograms, EveryPassNamedIsKnown) {
  const auto& known = ptx::known_passes();
  for (const ProgramSpec& s : program_specs()) {
    const bool runs_passes =
        s.from == ProgramFrom::ptx_passes || s.from == ProgramFrom::ptx_as_built_passes;
    EXPECT_EQ(runs_passes, !s.passes.empty()) << s.workload << "/" << s.variant;
    for (const std::string& p : s.passes)
      EXPECT_NE(std::find(known.begin(), known.end(), p), known.end())
          << s.workload << "/" << s.variant << ": " << p;
  }
}

TEST(OpenClPrograms, AutoChainEndsWithAlign) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> chain = {
      {"auto-clean", {"cleanup"}},
      {"auto-unroll", {"cleanup", "unroll"}},
      {"auto-unroll-cse", {"cleanup", "unroll", "cse"}},
      {"auto-unroll-cse-mad", {"cleanup", "unroll", "cse", "mad"}},
      {"auto-unroll-cse-mad-licm", {"cleanup", "unroll", "cse", "mad", "licm"}},
      {"auto-unroll-cse-mad-licm-align", {"cleanup", "unroll", "cse", "mad", "licm", "align"}},
  };
  for (const auto& [workload, base] : kChainBases) {
    for (const auto& [step, passes] : chain) {
      SCOPED_TRACE(workload + "/" + base + "-" + step);
      const ProgramSpec& s = program_spec(workload, base + "-" + step);
      EXPECT_EQ(s.from, ProgramFrom::ptx_passes);
      EXPECT_EQ(s.base, base);
      EXPECT_EQ(s.passes, passes);
    }
  }
}

TEST(OpenClPrograms, PtxAlignIsTheSourceBuildsPtxAfterAlignAlone) {
  for (const auto& [workload, base] : kChainBases) {
    SCOPED_TRACE(workload + "/" + base);
    const ProgramSpec& s = program_spec(workload, base + "-ptx-align");
    EXPECT_EQ(s.from, ProgramFrom::ptx_as_built_passes);
    EXPECT_EQ(s.passes, std::vector<std::string>{"align"});
    EXPECT_EQ(program_spec(workload, base + "-ptx-as-built").from, ProgramFrom::ptx_as_built);
    EXPECT_EQ(program_spec(workload, base + "-ptx-O0").from, ProgramFrom::ptx_O0);
  }
  // Per base: 3 controls and 6 auto steps; matrixMul also the hand chain,
  // nvcc's PTX and tile{16,32}-aligned-ptx-shared32; cp also unrollx8-fast-ptx-ftz
  // and unrollx8-fast-byvalue-ptx-ftz.
  EXPECT_EQ(ptx_variants("cp").size(), 11u);
  EXPECT_EQ(program_spec("cp", "unrollx8-fast-ptx-ftz").passes, std::vector<std::string>{"ftz"});
  EXPECT_EQ(program_spec("cp", "unrollx8-fast-ptx-ftz").base, "unrollx8-fast");
  EXPECT_EQ(ptx_variants("mriq").size(), 9u);
  EXPECT_EQ(ptx_variants("mrifhd").size(), 9u);
  EXPECT_EQ(ptx_variants("matrixMul").size(), 2 * 9u + 5 + 2 + 2);
}

TEST(OpenClPrograms, PtxShared32IsTheAlignedTilesPtxAfterShared32Alone) {
  for (const char* base : {"tile16-aligned", "tile32-aligned"}) {
    SCOPED_TRACE(base);
    const ProgramSpec& s = program_spec("matrixMul", std::string(base) + "-ptx-shared32");
    EXPECT_EQ(s.from, ProgramFrom::ptx_as_built_passes);
    EXPECT_EQ(s.passes, std::vector<std::string>{"shared32"});
    EXPECT_EQ(s.base, base);
    EXPECT_EQ(s.options, program_spec("matrixMul", base).options);
  }
}

TEST(OpenClPrograms, AlignedMatrixMulFromOneSourceWithAnOption) {
  for (const int tile : {16, 32}) {
    const std::string t = "tile" + std::to_string(tile);
    const ProgramSpec& plain = program_spec("matrixMul", t);
    const ProgramSpec& aligned = program_spec("matrixMul", t + "-aligned");
    EXPECT_EQ(aligned.from, ProgramFrom::source);
    EXPECT_EQ(aligned.file, plain.file);
    EXPECT_EQ(plain.options, "-DTILE=" + std::to_string(tile));
    EXPECT_EQ(aligned.options, plain.options + " -DALIGN_TILES=16");
  }
}

// Every tiled kernel of the shared list is built by OpenCL, from source.
TEST(OpenClPrograms, TiledKernelsPairWithTheCudaList) {
  std::set<std::string> variants;
  for (const matrixmul::Variant& k : matrixmul::tiled_kernels()) {
    variants.insert(k.name);
    const ProgramSpec& s = program_spec("matrixMul", k.name);
    EXPECT_EQ(s.from, ProgramFrom::source);
    EXPECT_NE(s.options.find("-DTILE=" + std::to_string(k.tile)), std::string::npos);
    EXPECT_EQ(s.options.find("-DALIGN_TILES") != std::string::npos, k.tile_align > 0);
  }
  EXPECT_EQ(variants,
            (std::set<std::string>{"tile16", "tile32", "tile16-aligned", "tile32-aligned"}));
}

// The ptx-from-nvcc programs name exactly one kernel of nvcc's PTX of this
// build (matrixMul<TILE, ALIGN>: the aligned instantiations sit beside them).
TEST(OpenClPrograms, FromNvccEntriesMatchOneKernelOfThisBuild) {
#ifndef GPUCMP_HAVE_NVCC_PTX
  GTEST_SKIP() << "a build without the CUDA side embeds no nvcc PTX";
#else
  int seen = 0;
  for (const ProgramSpec& s : program_specs()) {
    if (s.from != ProgramFrom::ptx_from_nvcc) continue;
    ++seen;
    SCOPED_TRACE(s.workload + "/" + s.variant + " entry " + s.entry);
    ptx::Module m = ptx::parse(nvcc_ptx::embedded_sources().at(s.ptx), s.ptx);
    std::vector<std::string> notes;
    EXPECT_NO_THROW(ptx::rewrite_nvcc_kernel_for_opencl(m, s.entry, s.kernel, &notes));
    ASSERT_EQ(m.functions.size(), 1u);
    EXPECT_EQ(m.functions[0].name, s.kernel);
  }
  EXPECT_EQ(seen, 2);
#endif
}

// Every pass a program names is in the PTX pass registry (ptx/pass_registry.h).
TEST(OpenClPrograms, EveryPassNamedIsRegistered) {
  int named = 0;
  for (const ProgramSpec& s : program_specs())
    for (const std::string& pass : s.passes) {
      EXPECT_NE(ptx::find_pass(pass), nullptr) << s.workload << "/" << s.variant << ": " << pass;
      ++named;
    }
  EXPECT_GT(named, 20);
}

// The chains carry their place: steps 1..n in table order, one more pass (or
// hand file) per step, and the -O0 PTX at step 0; the label says it all.
TEST(OpenClPrograms, ChainStepsAreContiguousAndLabelled) {
  for (const char* base : {"tile16", "tile32"}) {
    int expected = 1;
    for (const ProgramSpec& s : program_specs()) {
      if (s.workload != "matrixMul" || s.base != base || s.chain != "auto") continue;
      EXPECT_EQ(s.step, expected) << s.variant;
      EXPECT_EQ(int(s.passes.size()), expected) << s.variant;
      ++expected;
    }
    EXPECT_EQ(expected, 7) << base << ": auto chain of 6 steps";
  }
  EXPECT_EQ(describe(program_spec("matrixMul", "tile16-auto-unroll-cse")),
            "from=ptx_passes; base=tile16; options=-DTILE=16; passes=cleanup,unroll,cse; "
            "chain=auto; step=3");
  EXPECT_EQ(describe(program_spec("matrixMul", "tile16-hand-unroll")),
            "from=ptx_file; base=tile16; options=-DTILE=16; chain=hand; step=2");
  EXPECT_EQ(describe(program_spec("cp", "unrollx8-ptx-O0")), "from=ptx_O0; base=unrollx8; step=0");
  EXPECT_EQ(describe(program_spec("cp", "unrollx8-fast")),
            "from=source; base=unrollx8-fast; options=-cl-fast-relaxed-math");
}

// cp's by-value programs take their chunk from the device they are built for
// (ProgramSpec::device_options, through driver_options as the runners and
// gpucmp-ptx dump build them), after their math options.
TEST(OpenClPrograms, ByValueChunkIsADefineOfTheDevice) {
  DeviceInfo limit4352, minimum;
  limit4352.max_parameter_bytes = 4352;
  minimum.max_parameter_bytes = 1024;
  for (const auto& [variant, math] : {std::pair{"unrollx8-byvalue", ""},
                                      {"unrollx8-ieee-byvalue", kIeee},
                                      {"unrollx8-fast-byvalue", kFast}}) {
    const ProgramSpec& s = program_spec("cp", variant);
    SCOPED_TRACE(variant);
    EXPECT_EQ(s.from, ProgramFrom::source);
    EXPECT_EQ(s.options, math);
    ASSERT_NE(s.device_options, nullptr);
    const std::string with = std::string(math).empty() ? "" : std::string(math) + " ";
    EXPECT_EQ(driver_options(s, true, limit4352), with + "-DCP_BYVALUE_ATOMS=256");
    EXPECT_EQ(driver_options(s, false, minimum), with + "-DCP_BYVALUE_ATOMS=32");
    EXPECT_NE(describe(s, &limit4352).find("; device_options=-DCP_BYVALUE_ATOMS=256"),
              std::string::npos);
  }
  DeviceInfo tiny;
  tiny.max_parameter_bytes = 20;
  EXPECT_THROW(driver_options(program_spec("cp", "unrollx8-byvalue"), true, tiny), Unavailable);
  EXPECT_EQ(program_spec("cp", "unrollx8").device_options, nullptr);
}

// MRI's by-value programs take their chunk from the device as cp's do: the
// largest count of records (16 bytes Q, 20 FHD) beside 48 bytes of other
// arguments, at most the constant tile, as -DK_BYVALUE=N after the math options.
TEST(OpenClPrograms, MriByValueChunkIsADefineOfTheDevice) {
  DeviceInfo limit4352, minimum, large, tiny;
  limit4352.max_parameter_bytes = 4352;
  minimum.max_parameter_bytes = 1024;
  large.max_parameter_bytes = 1 << 20;
  tiny.max_parameter_bytes = 48 + 15;
  for (const auto& [w, nv, min, cap] :
       {std::tuple{"mriq", "269", "61", "1024"}, {"mrifhd", "215", "48", "512"}}) {
    for (const auto& [variant, math] :
         {std::pair{"precise-byvalue", ""}, {"fast-byvalue", kFast}}) {
      const ProgramSpec& s = program_spec(w, variant);
      SCOPED_TRACE(std::string(w) + "/" + variant);
      EXPECT_EQ(s.from, ProgramFrom::source);
      EXPECT_EQ(s.file, program_spec(w, "precise").file);
      EXPECT_EQ(s.options, math);
      ASSERT_NE(s.device_options, nullptr);
      const std::string with = std::string(math).empty() ? "" : std::string(math) + " ";
      EXPECT_EQ(driver_options(s, true, limit4352), with + "-DK_BYVALUE=" + nv);
      EXPECT_EQ(driver_options(s, false, minimum), with + "-DK_BYVALUE=" + min);
      EXPECT_EQ(driver_options(s, false, large), with + "-DK_BYVALUE=" + cap);
      EXPECT_THROW(driver_options(s, true, tiny), Unavailable);
    }
    for (const char* v : {"precise", "fast", "precise-prefetch", "precise-vec4"})
      EXPECT_EQ(program_spec(w, v).device_options, nullptr) << w << "/" << v;
  }
}

// The ftz pass on the fast builds' own PTX: as written and by value.
TEST(OpenClPrograms, FtzOnTheFastBuildsPtx) {
  for (const char* base : {"unrollx8-fast", "unrollx8-fast-byvalue"}) {
    const ProgramSpec& s = program_spec("cp", std::string(base) + "-ptx-ftz");
    EXPECT_EQ(s.from, ProgramFrom::ptx_as_built_passes) << base;
    EXPECT_EQ(s.base, base);
    EXPECT_EQ(s.passes, std::vector<std::string>{"ftz"}) << base;
    EXPECT_EQ(s.options, kFast) << base;
  }
  EXPECT_NE(program_spec("cp", "unrollx8-fast-byvalue-ptx-ftz").device_options, nullptr)
      << "its source build is the by-value one";
}

// The prefetch forms: the as-written programs with one define more.
TEST(OpenClPrograms, PrefetchFormsAreTheirMathModeWithADefine) {
  for (const auto& [w, variant, base, define] :
       {std::tuple{"cp", "unrollx8-prefetch", "unrollx8", "-DCP_PREFETCH"},
        {"cp", "unrollx8-ieee-prefetch", "unrollx8-ieee", "-DCP_PREFETCH"},
        {"cp", "unrollx8-fast-prefetch", "unrollx8-fast", "-DCP_PREFETCH"},
        {"mriq", "precise-prefetch", "precise", "-DK_LOOP_PREFETCH"},
        {"mriq", "fast-prefetch", "fast", "-DK_LOOP_PREFETCH"},
        {"mrifhd", "precise-prefetch", "precise", "-DK_LOOP_PREFETCH"},
        {"mrifhd", "fast-prefetch", "fast", "-DK_LOOP_PREFETCH"}}) {
    const ProgramSpec& s = program_spec(w, variant);
    const ProgramSpec& as_written = program_spec(w, base);
    SCOPED_TRACE(std::string(w) + "/" + variant);
    EXPECT_EQ(s.from, ProgramFrom::source);
    EXPECT_EQ(s.file, as_written.file);
    EXPECT_NE(s.options.find(define), std::string::npos) << s.options;
    EXPECT_NE(s.options.find(as_written.options), std::string::npos) << s.options;
  }
}

// reduce's pipeline capped at 40 registers: NVIDIA's driver alone, every word
// type, the rest as pipeline's program; its label says the option.
TEST(OpenClPrograms, RegisterCapOnNvidiaOnly) {
  for (const char* type : {"", "-int32", "-affine16"}) {
    const ProgramSpec& s = program_spec("reduce", std::string("pipeline-regcap40") + type);
    const ProgramSpec& plain = program_spec("reduce", std::string("pipeline") + type);
    SCOPED_TRACE(s.variant);
    EXPECT_EQ(s.nvidia_options, "-cl-nv-maxrregcount=40");
    EXPECT_EQ(driver_options(s, false), driver_options(plain, false));
    EXPECT_EQ(driver_options(s, true), plain.options + " -cl-nv-maxrregcount=40");
    EXPECT_NE(describe(s).find("; nvidia_options=-cl-nv-maxrregcount=40"), std::string::npos);
    EXPECT_TRUE(plain.nvidia_options.empty());
  }
}

// scan's alpha and onepass builds of the standard rows' alphas are programs of
// their own (so the SASS dump holds them), identical to the program with
// -DALPHA; other alphas build the program with -DALPHA.
TEST(OpenClPrograms, ScanAlphaBuildsAreTheirProgramWithTheAlpha) {
  for (const std::string program : {"alpha", "alpha-int32", "onepass", "onepass-int32"}) {
    SCOPED_TRACE(program);
    const ProgramSpec& base = program_spec("scan", program);
    for (const int alpha : {8, 16, 32}) {
      const ProgramSpec built = scan_alpha_build(base, alpha);
      EXPECT_EQ(built.variant, program + "-a" + std::to_string(alpha)) << "a registered program";
      EXPECT_EQ(built.from, ProgramFrom::source);
      EXPECT_EQ(built.file, base.file);
      EXPECT_EQ(built.options, base.options + " -DALPHA=" + std::to_string(alpha));
      EXPECT_EQ(built.nvidia_options, base.nvidia_options);
    }
    const ProgramSpec other = scan_alpha_build(base, 4);
    EXPECT_EQ(other.variant, program);
    EXPECT_EQ(other.options, base.options + " -DALPHA=4");
  }
}

}  // namespace
}  // namespace gpucmp::opencl
