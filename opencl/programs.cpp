#include "programs.h"

#include "errors.h"
#include "workloads/sdk/matrixmul.h"

namespace gpucmp::opencl {

namespace {
constexpr const char* kFast = "-cl-fast-relaxed-math";
constexpr const char* kIeee = "-cl-fp32-correctly-rounded-divide-sqrt";
// Fast math with denormals flushed, as CUDA's --use_fast_math (-ftz=true).
constexpr const char* kFastFtz = "-cl-fast-relaxed-math -cl-denorms-are-zero";
// MRI's k loop bounded by the tile's count only (mri::KLoop::count_only).
constexpr const char* kCountOnly = "-DK_LOOP_COUNT_ONLY";
constexpr const char* kCountOnlyFast = "-DK_LOOP_COUNT_ONLY -cl-fast-relaxed-math";
// reduce.cl's word: int32 summed as unsigned (modulo 2^32), or float.
constexpr const char* kReduceInt32 = "-DT=uint -DT4=uint4";
constexpr const char* kReduceFloat = "-DT=float -DT4=float4";
constexpr const char* kReduceAffine = "-DT=uint -DT4=uint4 -DAFFINE16";  // agpu_ops.clh
// scan.cl's word, and AS_T: a uint's bits as the word.
constexpr const char* kScanInt32 = "-DT=uint -DAS_T=as_uint";
constexpr const char* kScanFloat = "-DT=float -DAS_T=as_float";
constexpr const char* kScanAffine = "-DT=uint -DAS_T=as_uint -DAFFINE16";

ProgramSpec source(const std::string& workload, const std::string& variant, const std::string& file,
                   const std::string& options) {
  ProgramSpec s;
  s.workload = workload;
  s.variant = s.base = variant;
  s.file = file;
  s.options = options;
  return s;
}

// scan_onepass.cl's sleep between look-back polls, on NVIDIA's driver only.
constexpr const char* kNvSleep = "-DNV_NANOSLEEP";

ProgramSpec with_nvidia(ProgramSpec spec, const std::string& options) {
  spec.nvidia_options = options;
  return spec;
}

ProgramSpec derived(const ProgramSpec& base, const std::string& suffix, ProgramFrom from) {
  ProgramSpec s = base;
  s.variant = base.variant + "-" + suffix;
  s.from = from;
  return s;
}

// The study's chain, cumulative, applied by gpucmp's passes to the -O0 PTX:
// cleanup first (calls inlined, stack slots to registers: the 2010-like
// baseline), then unroll, cse, mad, licm, and a fifth step the 2010 study did
// not need: align (.shared tiles aligned to 16 bytes, for LDS.128).
void add_auto_chain(std::vector<ProgramSpec>& specs, const ProgramSpec& base) {
  std::vector<std::string> passes = {"cleanup"};
  ProgramSpec clean = derived(base, "auto-clean", ProgramFrom::ptx_passes);
  clean.passes = passes;
  clean.chain = "auto";
  clean.step = 1;
  specs.push_back(clean);
  std::string name = "auto";
  int step = 1;
  for (const char* pass : {"unroll", "cse", "mad", "licm", "align"}) {
    passes.emplace_back(pass);
    name += std::string("-") + pass;
    ProgramSpec s = derived(base, name, ProgramFrom::ptx_passes);
    s.passes = passes;
    s.chain = "auto";
    s.step = ++step;
    specs.push_back(s);
  }
}

// The same chain edited by hand, files ptx/variants/<workload>/<base>-<step>.ptx.
void add_hand_chain(std::vector<ProgramSpec>& specs, const ProgramSpec& base) {
  int index = 0;
  for (const char* step : {"hand-base", "hand-unroll", "hand-unroll-cse", "hand-unroll-cse-mad",
                           "hand-unroll-cse-mad-licm"}) {
    ProgramSpec s = derived(base, step, ProgramFrom::ptx_file);
    s.ptx = base.variant + "-" + step + ".ptx";
    s.chain = "hand";
    s.step = ++index;
    specs.push_back(s);
  }
}

// ptx-align: the source build's own PTX after the align pass alone, which
// prices it apart from everything the chain does before it.
void add_ptx_controls(std::vector<ProgramSpec>& specs, const ProgramSpec& base) {
  specs.push_back(derived(base, "ptx-as-built", ProgramFrom::ptx_as_built));
  ProgramSpec o0 = derived(base, "ptx-O0", ProgramFrom::ptx_O0);
  o0.step = 0;  // where both chains start
  specs.push_back(o0);
  ProgramSpec align = derived(base, "ptx-align", ProgramFrom::ptx_as_built_passes);
  align.passes = {"align"};
  specs.push_back(align);
}

const ProgramSpec& program_spec_of(const std::vector<ProgramSpec>& specs, const char* workload,
                                   const char* variant) {
  for (const auto& s : specs)
    if (s.workload == workload && s.variant == variant) return s;
  throw ApiError(std::string("no OpenCL program ") + workload + "/" + variant);
}

// A tiled matrixMul kernel of harness/workloads/sdk/matrixmul.h, by its variant name.
ProgramSpec tiled_matrixmul(const std::string& variant) {
  for (const matrixmul::Variant& k : matrixmul::tiled_kernels()) {
    if (k.name != variant) continue;
    std::string options = "-DTILE=" + std::to_string(k.tile);
    if (k.tile_align > 0) options += " -DALIGN_TILES=" + std::to_string(k.tile_align);
    return source("matrixMul", k.name, "matrixmul.cl", options);
  }
  throw ApiError("no tiled matrixMul kernel " + variant);
}

ProgramSpec from_nvcc(const ProgramSpec& base, const std::string& ptx, const std::string& entry,
                      const std::string& kernel) {
  ProgramSpec s = derived(base, "ptx-from-nvcc", ProgramFrom::ptx_from_nvcc);
  s.ptx = ptx;
  s.entry = entry;
  s.kernel = kernel;
  return s;
}

std::vector<ProgramSpec> make_specs() {
  const ProgramSpec tile16 = tiled_matrixmul("tile16");
  const ProgramSpec tile32 = tiled_matrixmul("tile32");
  const ProgramSpec cp_x8 = source("cp", "unrollx8", "cp.cl", "");
  const ProgramSpec mriq = source("mriq", "precise", "mriq.cl", "");
  const ProgramSpec mrifhd = source("mrifhd", "precise", "mrifhd.cl", "");
  std::vector<ProgramSpec> specs = {
      tile16,
      tile32,
      tiled_matrixmul("tile16-aligned"),
      tiled_matrixmul("tile32-aligned"),
      source("cp", "base", "cp.cl", ""),
      cp_x8,
      source("cp", "unrollx8-ieee", "cp.cl", kIeee),
      source("cp", "unrollx8-fast", "cp.cl", kFast),
      source("cp", "unrollx8-fast-ftz", "cp.cl", kFastFtz),
      mriq,
      source("mriq", "fast", "mriq.cl", kFast),
      source("mriq", "uniform-tile", "mriq.cl", kCountOnly),
      source("mriq", "uniform-tile-fast", "mriq.cl", kCountOnlyFast),
      mrifhd,
      source("mrifhd", "fast", "mrifhd.cl", kFast),
      source("mrifhd", "uniform-tile", "mrifhd.cl", kCountOnly),
      source("mrifhd", "uniform-tile-fast", "mrifhd.cl", kCountOnlyFast),
      source("triad", "base", "triad.cl", ""),
      source("advection", "blocked", "advection.cl", ""),
      source("advection", "branchy", "advection.cl", "-DTWO_BRANCH"),
      source("advection", "plain", "advection.cl", ""),
      source("advection", "weights", "advection.cl", ""),
      source("advection", "stream", "advection.cl", ""),
      source("advection", "async", "advection_async.cl", ""),
      source("advection", "ring", "advection_async.cl", "-DRING_LOADS"),
      source("ceiling", "fma", "ceiling.cl", ""),
      source("ceiling", "shared", "ceiling.cl", ""),
      source("ceiling", "l2", "ceiling.cl", ""),
      source("ceiling", "launch", "ceiling.cl", ""),
      source("mmnaive", "base", "mmnaive.cl", ""),
      source("bilinear", "base", "bilinear.cl", ""),
      source("sort", "bitonic", "sort.cl", ""),
      source("trapezoid", "base", "trapezoid.cl", ""),
      // LavaMD once per particle layout (the data-layout study; lavamd_runner.cpp).
      source("lavamd", "base", "lavamd.cl", "-DGPUCMP_LAYOUT=0 -DGPUCMP_TILE=32"),
      source("lavamd", "base-soa", "lavamd.cl", "-DGPUCMP_LAYOUT=1 -DGPUCMP_TILE=32"),
      source("lavamd", "base-aosoa", "lavamd.cl", "-DGPUCMP_LAYOUT=2 -DGPUCMP_TILE=32"),
      source("lavamd", "aligned", "lavamd.cl",
             "-DGPUCMP_LAYOUT=0 -DGPUCMP_TILE=32 -DLOCAL_ALIGN=16"),
      source("lavamd", "aligned-soa", "lavamd.cl",
             "-DGPUCMP_LAYOUT=1 -DGPUCMP_TILE=32 -DLOCAL_ALIGN=16"),
      source("lavamd", "aligned-aosoa", "lavamd.cl",
             "-DGPUCMP_LAYOUT=2 -DGPUCMP_TILE=32 -DLOCAL_ALIGN=16"),
      source("layoutconv", "base", "layoutconv.cl", ""),
      // The AGPU model's reductions, once per algorithm and word type (the
      // programs are alike; each row builds its own, as each CUDA row has its kernels).
      source("reduce", "tree-int32", "reduce.cl", kReduceInt32),
      source("reduce", "tree", "reduce.cl", kReduceFloat),
      source("reduce", "tree-affine16", "reduce.cl", kReduceAffine),
      source("reduce", "cascading-int32", "reduce.cl", kReduceInt32),
      source("reduce", "cascading", "reduce.cl", kReduceFloat),
      source("reduce", "cascading-affine16", "reduce.cl", kReduceAffine),
      source("reduce", "pipeline-int32", "reduce.cl", kReduceInt32),
      source("reduce", "pipeline", "reduce.cl", kReduceFloat),
      source("reduce", "pipeline-affine16", "reduce.cl", kReduceAffine),
      source("scan", "alpha-int32", "scan.cl", kScanInt32),
      source("scan", "alpha", "scan.cl", kScanFloat),
      source("scan", "alpha-affine16", "scan.cl", kScanAffine),
      source("scan", "lookback-int32", "scan.cl", kScanInt32),
      source("scan", "lookback", "scan.cl", kScanFloat),
      source("scan", "lookback-affine16", "scan.cl", kScanAffine),
      with_nvidia(source("scan", "onepass-int32", "scan_onepass.cl", kScanInt32), kNvSleep),
      with_nvidia(source("scan", "onepass", "scan_onepass.cl", kScanFloat), kNvSleep),
      with_nvidia(source("scan", "onepass-affine16", "scan_onepass.cl", kScanAffine), kNvSleep),
      source("bodies", "base", "bodies.cl", "-DGPUCMP_LAYOUT=0 -DGPUCMP_TILE=32"),
      source("bodies", "base-soa", "bodies.cl", "-DGPUCMP_LAYOUT=1 -DGPUCMP_TILE=32"),
      source("bodies", "base-aosoa", "bodies.cl", "-DGPUCMP_LAYOUT=2 -DGPUCMP_TILE=32"),
  };
  // ptx-ftz: cp's fast PTX with CUDA's fast-math denormal semantics (pass ftz).
  ProgramSpec cp_fast_ftz = derived(program_spec_of(specs, "cp", "unrollx8-fast"), "ptx-ftz",
                                    ProgramFrom::ptx_as_built_passes);
  cp_fast_ftz.passes = {"ftz"};
  specs.push_back(cp_fast_ftz);
  // ptx-shared32: the aligned tiles' PTX with nvcc's 32-bit .shared addressing
  // (pass shared32) in place of OpenCL's 64-bit one.
  for (const char* aligned : {"tile16-aligned", "tile32-aligned"}) {
    ProgramSpec shared32 = derived(program_spec_of(specs, "matrixMul", aligned), "ptx-shared32",
                                   ProgramFrom::ptx_as_built_passes);
    shared32.passes = {"shared32"};
    specs.push_back(shared32);
  }
  for (const ProgramSpec* base : {&tile16, &tile32, &cp_x8, &mriq, &mrifhd}) {
    add_ptx_controls(specs, *base);
    add_auto_chain(specs, *base);
  }
  add_hand_chain(specs, tile16);
  // cp, mriq and mrifhd read their inputs from a __constant__ symbol in CUDA
  // and from a __constant kernel argument in OpenCL: nvcc's PTX of them has a
  // different signature (ptx/README.md), so only matrixMul crosses over.
  // matrixMul<TILE, ALIGN>: the unaligned kernels have ALIGN = alignof(float).
  specs.push_back(from_nvcc(tile16, "matrixmul.ptx", "matrixMulILi16ELi4E", "matrixMul"));
  specs.push_back(from_nvcc(tile32, "matrixmul.ptx", "matrixMulILi32ELi4E", "matrixMul"));
  return specs;
}

}  // namespace

const char* from_name(ProgramFrom from) {
  switch (from) {
    case ProgramFrom::source:
      return "source";
    case ProgramFrom::ptx_as_built:
      return "ptx_as_built";
    case ProgramFrom::ptx_as_built_passes:
      return "ptx_as_built_passes";
    case ProgramFrom::ptx_O0:
      return "ptx_O0";
    case ProgramFrom::ptx_passes:
      return "ptx_passes";
    case ProgramFrom::ptx_file:
      return "ptx_file";
    case ProgramFrom::ptx_from_nvcc:
      return "ptx_from_nvcc";
  }
  return "?";
}

std::string describe(const ProgramSpec& spec) {
  std::string out = std::string("from=") + from_name(spec.from) + "; base=" + spec.base;
  if (!spec.options.empty()) out += "; options=" + spec.options;
  if (!spec.passes.empty()) {
    out += "; passes=";
    for (std::size_t i = 0; i < spec.passes.size(); ++i) out += (i ? "," : "") + spec.passes[i];
  }
  if (!spec.chain.empty()) out += "; chain=" + spec.chain;
  if (spec.step >= 0) out += "; step=" + std::to_string(spec.step);
  return out;
}

const std::vector<ProgramSpec>& program_specs() {
  static const std::vector<ProgramSpec> specs = make_specs();
  return specs;
}

const ProgramSpec& program_spec(const std::string& workload, const std::string& variant) {
  for (const auto& s : program_specs())
    if (s.workload == workload && s.variant == variant) return s;
  throw ApiError("no OpenCL program for " + workload + "/" + variant);
}

std::vector<ProgramSpec> ptx_variants(const std::string& workload) {
  std::vector<ProgramSpec> out;
  for (const auto& s : program_specs())
    if (s.workload == workload && s.from != ProgramFrom::source) out.push_back(s);
  return out;
}

}  // namespace gpucmp::opencl
