// OpenCL runner of scan: the words uploaded once; per launch the alpha
// algorithm's three kernels or lookback's one (scan.cl), or onepass's one
// (scan_onepass.cl), each variant's program per type registered below; the
// prefix sums read after. Geometry as cuda/agpu/scan.cu's and scan_onepass.cu's.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "check.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "scan_builds.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/agpu/scan.h"

namespace gpucmp::opencl {

namespace {
// `program` with its kernels compiled for `alpha` (-DALPHA), under its own
// name or as <program>-a<alpha> (renamed: a registered build of its own).
ProgramSpec with_alpha(const ProgramSpec& program, int alpha, bool renamed) {
  ProgramSpec build = program;
  if (renamed) build.variant = build.base = program.variant + "-a" + std::to_string(alpha);
  build.options += " -DALPHA=" + std::to_string(alpha);
  return build;
}
}  // namespace

ProgramSpec scan_alpha_build(const ProgramSpec& program, int alpha) {
  const ProgramSpec registered = with_alpha(program, alpha, /*renamed=*/true);
  for (const ProgramSpec& s : program_specs())
    if (s.workload == registered.workload && s.variant == registered.variant) return s;
  return with_alpha(program, alpha, /*renamed=*/false);
}

namespace {

class ScanRunner : public TimedRunner {
 public:
  ScanRunner(scan::Problem& p, const scan::Variant& v)
      : p_(p),
        onepass_(scan::is_onepass(v)),
        status_(scan::has_tile_status(v)),
        single_pass_name_(onepass_ ? "scan_onepass" : "scan_lookback"),
        alpha_(v.alpha),
        spec_(compiled_for(v, p.type)),
        program_(session().program(spec_)) {
    if (status_) {
      single_pass_ = make_kernel(program_, single_pass_name_);
      return;
    }
    tile_sums_ = make_kernel(program_, "scan_tile_sums");
    sums_ = make_kernel(program_, "scan_sums");
    tiles_ = make_kernel(program_, "scan_tiles");
  }

  void upload() override {
    const std::size_t bytes = p_.n * sizeof(std::uint32_t);
    in_ = make_buffer(CL_MEM_READ_ONLY, bytes, "scan words");
    out_ = make_buffer(CL_MEM_WRITE_ONLY, bytes, "scan prefix sums");
    scratch_ =
        make_buffer(CL_MEM_READ_WRITE, scratch_bytes(), status_ ? "scan tile status" : "scan sums");
    check(clEnqueueWriteBuffer(session().queue(), in_, CL_TRUE, 0, bytes, p_.words.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer", "scan words");
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), out_, CL_TRUE, 0, p_.n * sizeof(std::uint32_t),
                              p_.out.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer", "scan prefix sums");
  }
  std::string label() const override { return describe(spec_); }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    const std::size_t m = scan::tiles(p_.n, alpha_);
    const LocalBytes tile{tile_bytes(alpha_)};
    const auto n = cl_ulong(p_.n);
    if (status_) {
      const cl_ulong zero = 0;
      check(clEnqueueFillBuffer(session().queue(), scratch_, &zero, sizeof zero, 0, scratch_bytes(),
                                0, nullptr, record()),
            "clEnqueueFillBuffer", std::string(single_pass_name_) + " status");
      if (onepass_)  // alpha compiled, its __local memory its own
        set_args(single_pass_, single_pass_name_, in_, out_, scratch_, n, cl_ulong(m));
      else
        set_args(single_pass_, single_pass_name_, in_, out_, scratch_, n, cl_ulong(m),
                 cl_int(alpha_), tile);
      run(single_pass_, m, single_pass_name_);
      return;
    }
    set_args(tile_sums_, "scan_tile_sums", in_, scratch_, n, cl_int(alpha_), tile);
    run(tile_sums_, m, "scan_tile_sums");
    set_args(sums_, "scan_sums", scratch_, cl_ulong(m), LocalBytes{tile_bytes(scan::kSumsAlpha)});
    run(sums_, 1, "scan_sums");
    set_args(tiles_, "scan_tiles", in_, out_, scratch_, n, cl_int(alpha_), tile);
    run(tiles_, m, "scan_tiles");
  }

 private:
  // The variant's program, built for its alpha where scan::compiled_alpha
  // has one (-DALPHA), as cuda/agpu/scan.cu instantiates its kernels; the
  // lookback kernel reads alpha at run time either way; onepass's alphas
  // (scan::onepass_has_alpha, the others' rows skipped) are all compiled.
  // onepass sleeps between polls (its nvidia_options: PTX nanosleep by
  // inline asm, added by Session::source_options on NVIDIA's driver) unless
  // the row spins; other drivers spin.
  static ProgramSpec compiled_for(const scan::Variant& v, scan::Type type) {
    ProgramSpec spec = program_spec("scan", agpu::program_of(v.name, type));
    if (const int alpha = scan::compiled_alpha(v.alpha); alpha > 0 && v.name != "lookback")
      spec = scan_alpha_build(spec, alpha);
    if (v.spin) spec.nvidia_options.clear();            // Session::source_options adds the rest
    if (v.batched) spec.options += " -DBATCHED_LOADS";  // with its -DALPHA (alpha 8, 16, 32)
    return spec;
  }
  std::size_t scratch_bytes() const {
    return status_ ? scan::lookback_status_bytes(p_.n, alpha_)
                   : scan::tiles(p_.n, alpha_) * sizeof(std::uint32_t);
  }
  // A tile of alpha x kBlock words at skewed indices (scan.cl).
  static std::size_t tile_bytes(int alpha) {
    const std::size_t words = std::size_t(alpha) * scan::kBlock;
    return (words + words / 32) * sizeof(std::uint32_t);
  }
  void run(const Kernel& k, std::size_t groups, const char* what) {
    const std::size_t local = scan::kBlock, global = groups * local;
    check(clEnqueueNDRangeKernel(session().queue(), k, 1, nullptr, &global, &local, 0, nullptr,
                                 record()),
          "clEnqueueNDRangeKernel", what);
  }

  scan::Problem& p_;
  bool onepass_;
  bool status_;                   // lookback or onepass: one kernel over tile status words
  const char* single_pass_name_;  // the kernel of lookback or onepass
  int alpha_;
  ProgramSpec spec_;  // the program as built: its type's, with -DALPHA where compiled
  const BuiltProgram& program_;
  Kernel tile_sums_, sums_, tiles_, single_pass_;
  Buffer in_, out_, scratch_;
};

// scan.cl's word, and AS_T: a uint's bits as the word.
constexpr const char* kScanInt32 = "-DT=uint -DAS_T=as_uint";
constexpr const char* kScanFloat = "-DT=float -DAS_T=as_float";
constexpr const char* kScanAffine = "-DT=uint -DAS_T=as_uint -DAFFINE16";
// scan_onepass.cl's sleep between look-back polls, on NVIDIA's driver only;
// and scan::kOnepassRegcap64's register cap with it (the kernel without its
// required work-group size, under which NVIDIA's JIT ignores the cap).
constexpr const char* kNvSleep = "-DNV_NANOSLEEP";
constexpr const char* kNvSleepRegcap64 = "-DNV_NANOSLEEP -DANY_GROUP_SIZE -cl-nv-maxrregcount=64";

// The alphas of the standard rows, whose builds of alpha and onepass (int32
// and float) are registered programs of their own: <program>-a<alpha>.
constexpr int kRegisteredAlphas[] = {8, 16, 32};

// The program and its registered builds for kRegisteredAlphas (when `alphas`).
void add_with_alphas(std::vector<ProgramSpec>& specs, const ProgramSpec& program, bool alphas) {
  specs.push_back(program);
  if (!alphas) return;
  for (const int alpha : kRegisteredAlphas)
    specs.push_back(with_alpha(program, alpha, /*renamed=*/true));
}

GPUCMP_PROGRAMS {
  for (const char* algorithm : {"alpha", "lookback"}) {
    const std::string a = algorithm;
    const bool alphas = a == "alpha";
    add_with_alphas(specs, source("scan", a + "-int32", "scan.cl", kScanInt32), alphas);
    add_with_alphas(specs, source("scan", a, "scan.cl", kScanFloat), alphas);
    specs.push_back(source("scan", a + "-affine16", "scan.cl", kScanAffine));
  }
  for (const auto& [onepass, nvidia] : {std::pair<std::string, const char*>{"onepass", kNvSleep},
                                        {scan::kOnepassRegcap64, kNvSleepRegcap64}}) {
    add_with_alphas(
        specs,
        with_nvidia(source("scan", onepass + "-int32", "scan_onepass.cl", kScanInt32), nvidia),
        true);
    add_with_alphas(
        specs, with_nvidia(source("scan", onepass, "scan_onepass.cl", kScanFloat), nvidia), true);
    specs.push_back(
        with_nvidia(source("scan", onepass + "-affine16", "scan_onepass.cl", kScanAffine), nvidia));
  }
}

GPUCMP_RUNNERS("opencl") {
  const auto make = [](scan::Problem& p, const scan::Variant& v) {
    return std::make_unique<ScanRunner>(p, v);
  };
  scan::runners().add("opencl", scan::variants(), make);
  scan::runners().add("opencl", {{scan::kOnepassRegcap64}}, make);
}

}  // namespace

}  // namespace gpucmp::opencl
