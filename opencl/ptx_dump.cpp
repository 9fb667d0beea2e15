#include "ptx_dump.h"

#include <filesystem>
#include <fstream>

#include "check.h"
#include "errors.h"
#include "session.h"
#include "variant_ptx.h"

namespace gpucmp::opencl {

std::string program_binary(cl_program program) {
  std::size_t size = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
        "clGetProgramInfo", "CL_PROGRAM_BINARY_SIZES");
  std::string binary(size, '\0');
  unsigned char* ptr = reinterpret_cast<unsigned char*>(binary.data());
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

// The PTX of one program as its benchmark builds it, with the build log of
// that PTX (ptxas' report with -cl-nv-verbose on NVIDIA).
std::pair<std::string, std::string> program_ptx(Session& session, const ProgramSpec& spec,
                                                const std::string& verbose) {
  if (spec.from == ProgramFrom::source || spec.from == ProgramFrom::ptx_O0) {
    const std::string o0 = spec.from == ProgramFrom::ptx_O0 ? " -cl-opt-disable" : "";
    const BuiltProgram built = session.build(spec.file, spec.options + o0 + verbose);
    const std::string binary = program_binary(built.program);
    if (!looks_like_ptx(binary))
      throw UsageError("the OpenCL device '" + session.info().name +
                       "' returns binaries that are not PTX (" + std::to_string(binary.size()) +
                       " bytes from CL_PROGRAM_BINARIES): PTX dumps need NVIDIA's OpenCL");
    return {binary, "// build options: " + built.options + "\n" + built.log + "\n"};
  }
  const VariantPtx ptx = variant_ptx(session, spec);
  const BuiltProgram built = session.build_from_ptx(ptx.text, spec.options + verbose,
                                                    spec.workload + "/" + spec.variant);
  return {ptx.text, "// PTX: " + ptx.origin + "\n// build options: " + built.options + "\n" +
                        built.log + "\n"};
}

}  // namespace

std::vector<DumpedProgram> dump_programs(Session& session, const std::string& out_dir,
                                         const std::string& filter) {
  std::vector<DumpedProgram> done;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) throw UsageError(out_dir + ": cannot create (" + ec.message() + ")");
  const std::string verbose = session.is_nvidia() ? " -cl-nv-verbose" : "";
  for (const ProgramSpec& spec : program_specs()) {
    if (!filter.empty() && (spec.workload + "/" + spec.variant).find(filter) == std::string::npos)
      continue;
    if (spec.from == ProgramFrom::ptx_as_built) continue;  // the source build's own PTX
    DumpedProgram d{spec, out_dir + "/" + spec.workload + "-" + spec.variant + ".ptx",
                    out_dir + "/" + spec.workload + "-" + spec.variant + ".log", ""};
    try {
      const auto [ptx, log] = program_ptx(session, spec, verbose);
      write_file(d.ptx_path, ptx);
      write_file(d.log_path, log);
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
  if (done.empty()) throw UsageError("--variant '" + filter + "' matches no OpenCL program");
  return done;
}

}  // namespace gpucmp::opencl
