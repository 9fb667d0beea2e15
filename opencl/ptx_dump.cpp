#include "ptx_dump.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "check.h"
#include "errors.h"
#include "opt_disabled_guard.h"
#include "ptx/jit_cache.h"
#include "session.h"
#include "variant_ptx.h"

namespace gpucmp::opencl {

std::string program_binary(cl_program program) {
  std::size_t size = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
        "clGetProgramInfo", "CL_PROGRAM_BINARY_SIZES");
  std::string binary(size, '\0');
  auto* ptr = reinterpret_cast<unsigned char*>(binary.data());
  check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr),
        "clGetProgramInfo", "CL_PROGRAM_BINARIES");
  while (!binary.empty() && binary.back() == '\0') binary.pop_back();
  return binary;
}

namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw UsageError(path + ": cannot write");
}

}  // namespace

bool looks_like_ptx(const std::string& binary) {
  return binary.find(".version") != std::string::npos &&
         binary.find(".target") != std::string::npos;
}

namespace {

// The PTX's kernel names (".entry <name>").
std::vector<std::string> ptx_entries(const std::string& ptx) {
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$%][A-Za-z0-9_$]*))");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry); it != std::sregex_iterator();
       ++it)
    names.push_back((*it)[1].str());
  return names;
}

// Attributes the cubins the driver's JIT adds to its compute cache to the
// program whose last build added them.
class JitCapture {
 public:
  explicit JitCapture(std::string dir) : dir_(std::move(dir)) {}
  bool on() const { return !dir_.empty(); }

  void before_last_build() {
    if (!on()) return;
    try {
      before_ = ptx::snapshot_cache(dir_);
      error_.clear();
    } catch (const ptx::JitCacheError& e) {
      error_ = e.what();
    }
  }

  // The cubins of the build since before_last_build(), with a note when they
  // are not from it, or none and why.
  std::vector<ptx::CacheCubin> after_last_build(const std::string& name, const std::string& ptx,
                                                const std::string& options, std::string& note) {
    if (!on()) return {};
    std::vector<ptx::CacheCubin> added;
    try {
      if (!error_.empty()) throw ptx::JitCacheError(error_);
      added = ptx::cubins_since(dir_, before_);
    } catch (const ptx::JitCacheError& e) {
      note = e.what();
      return {};
    }
    std::vector<ptx::CacheCubin> mine;
    const auto entries = ptx_entries(ptx);
    for (auto& c : added)
      for (const auto& e : entries)
        if (c.has_kernel(e)) {
          mine.push_back(std::move(c));
          break;
        }
    const std::string key = options + "\n" + ptx;
    if (!mine.empty()) {
      if (!earlier_.count(key)) earlier_[key] = {name, mine};
      return mine;
    }
    if (const auto hit = earlier_.find(key); hit != earlier_.end()) {
      note = "served from this run's compute cache (same PTX and options as " + hit->second.first +
             "): the cubin that build added";
      return hit->second.second;
    }
    if (added.empty()) {
      note = "the build added no cubin to the driver's compute cache";
      return {};
    }
    // The snapshot brackets this one build: what it added is its code, even
    // when the kernels are named otherwise than in the PTX.
    note = "taken from what this build added, though no cubin names a kernel of its PTX";
    return added;
  }

 private:
  std::string dir_, error_;
  ptx::CacheSnapshot before_;
  // options + PTX -> (program, cubins): a repeated build is a cache hit.
  std::map<std::string, std::pair<std::string, std::vector<ptx::CacheCubin>>> earlier_;
};

struct ProgramOutput {
  std::string ptx, log, options;
};

// The PTX of one program as its benchmark builds it, with the build log of
// that PTX (ptxas' report with -cl-nv-verbose on NVIDIA). The capture's
// snapshot is taken right before the build whose code the benchmark runs.
ProgramOutput program_ptx(Session& session, const ProgramSpec& spec, const std::string& verbose,
                          JitCapture& capture) {
  if (spec.from == ProgramFrom::source || spec.from == ProgramFrom::ptx_O0) {
    const std::string o0 = spec.from == ProgramFrom::ptx_O0 ? " -cl-opt-disable" : "";
    if (!o0.empty()) before_opt_disabled_build(session);
    capture.before_last_build();
    const BuiltProgram built =
        session.build(spec.file, session.source_options(spec) + o0 + verbose);
    const std::string binary = program_binary(built.program);
    if (!looks_like_ptx(binary))
      throw UsageError("the OpenCL device '" + session.info().name +
                       "' returns binaries that are not PTX (" + std::to_string(binary.size()) +
                       " bytes from CL_PROGRAM_BINARIES): PTX dumps need NVIDIA's OpenCL");
    return {binary, "// build options: " + built.options + "\n" + built.log + "\n", built.options};
  }
  const VariantPtx ptx = variant_ptx(session, spec);
  capture.before_last_build();
  const BuiltProgram built = session.build_from_ptx(
      ptx.text, session.source_options(spec) + verbose, spec.workload + "/" + spec.variant);
  return {
      ptx.text,
      "// PTX: " + ptx.origin + "\n// build options: " + built.options + "\n" + built.log + "\n",
      built.options};
}

// Writes the cubins as <stem>.jit.cubin, <stem>.jit.2.cubin, ...
std::vector<std::string> write_cubins(const std::string& stem,
                                      const std::vector<ptx::CacheCubin>& cubins) {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < cubins.size(); ++i) {
    paths.push_back(stem + (i ? ".jit." + std::to_string(i + 1) : std::string(".jit")) + ".cubin");
    write_file(paths.back(), cubins[i].elf);
  }
  return paths;
}

}  // namespace

std::vector<ProgramSpec> dump_order(const std::vector<ProgramSpec>& specs,
                                    const std::string& filter, DumpShard shard) {
  std::vector<ProgramSpec> out;
  int place = 0;
  for (const ProgramSpec& spec : specs) {
    if (!filter.empty() && (spec.workload + "/" + spec.variant).find(filter) == std::string::npos)
      continue;
    if (spec.from == ProgramFrom::ptx_as_built) continue;  // the source build's own PTX
    if (place++ % shard.count != shard.index) continue;
    out.push_back(spec);
  }
  std::stable_partition(out.begin(), out.end(), [](const ProgramSpec& s) {
    return s.from != ProgramFrom::ptx_O0 && s.from != ProgramFrom::ptx_passes;
  });
  return out;
}

std::vector<DumpedProgram> dump_programs(Session& session, const std::string& out_dir,
                                         const std::string& filter,
                                         const std::string& jit_cache_dir, DumpShard shard) {
  std::vector<DumpedProgram> done;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) throw UsageError(out_dir + ": cannot create (" + ec.message() + ")");
  const std::string verbose = session.is_nvidia() ? " -cl-nv-verbose" : "";
  JitCapture capture(jit_cache_dir);
  for (const ProgramSpec& spec : dump_order(program_specs(), filter, shard)) {
    const std::string stem = out_dir + "/" + spec.workload + "-" + spec.variant;
    DumpedProgram d{spec, stem + ".ptx", stem + ".log", {}, "", ""};
    try {
      const ProgramOutput out = program_ptx(session, spec, verbose, capture);
      const auto cubins = capture.after_last_build(spec.workload + "-" + spec.variant, out.ptx,
                                                   out.options, d.jit_note);
      write_file(d.ptx_path, out.ptx);
      write_file(d.log_path,
                 out.log + (d.jit_note.empty() ? "" : "// JIT cubin: " + d.jit_note + "\n"));
      d.jit_cubin_paths = write_cubins(stem, cubins);
    } catch (const BuildError& e) {
      if (spec.from == ProgramFrom::source) throw;
      d.error = e.what();
      write_file(d.log_path, "// " + d.error + "\n" + e.log + "\n");
    } catch (const ApiError& e) {
      if (spec.from == ProgramFrom::source) throw;
      d.error = e.what();
    }
    done.push_back(d);
  }
  if (done.empty())
    throw UsageError(shard.count > 1 ? "--shard " + std::to_string(shard.index + 1) + "/" +
                                           std::to_string(shard.count) + " with --variant '" +
                                           filter + "' leaves no OpenCL program"
                                     : "--variant '" + filter + "' matches no OpenCL program");
  return done;
}

}  // namespace gpucmp::opencl
