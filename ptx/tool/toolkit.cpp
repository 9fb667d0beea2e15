#include "toolkit.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace gpucmp::ptxtool {

std::string find_tool(const std::string& program) {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string d; std::getline(ss, d, ':');) dirs.push_back(d);
  }
#ifdef GPUCMP_CUDA_BIN_DIR
  dirs.emplace_back(GPUCMP_CUDA_BIN_DIR);
#endif
  dirs.emplace_back("/usr/local/cuda/bin");
  for (const auto& d : dirs) {
    const auto p = std::filesystem::path(d) / program;
    std::error_code ec;
    if (!d.empty() && std::filesystem::is_regular_file(p, ec)) return p.string();
  }
  return "";
}

int run_command(const std::string& command, std::string& output) {
  output.clear();
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), int(buf.size()), pipe)) output += buf.data();
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string ptx_target(const std::string& text) {
  static const std::regex target(R"(\.target\s+(sm_[0-9]+[a-z]?))");
  std::smatch m;
  return std::regex_search(text, m, target) ? m[1].str() : "";
}

namespace {
std::string quote(const std::string& s) { return "'" + s + "'"; }
}  // namespace

std::string toolkit_version(const std::string& version_output) {
  static const std::regex version(R"(V([0-9]+\.[0-9]+(\.[0-9]+)?))");
  std::smatch m;
  return std::regex_search(version_output, m, version) ? m[1].str() : "";
}

std::string sass_of_ptx(const std::string& ptx_path, const std::string& sass_path) {
  const std::string ptxas = find_tool("ptxas");
  if (ptxas.empty()) return "no ptxas found";
  if (find_tool("cuobjdump").empty()) return "no cuobjdump found";
  std::ifstream in(ptx_path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string arch = ptx_target(text.str());
  if (arch.empty()) return ptx_path + ": no .target sm_XX directive";
  const std::string cubin = sass_path + ".cubin";
  std::string out, version;
  run_command(quote(ptxas) + " --version", version);
  if (run_command(quote(ptxas) + " -arch=" + arch + " " + quote(ptx_path) + " -o " + quote(cubin),
                  out) != 0)
    return "ptxas failed: " + out;
  std::string why = sass_of_cubins(
      {cubin}, sass_path,
      "// SASS: offline ptxas " + toolkit_version(version) + " -arch=" + arch + " on " +
          std::filesystem::path(ptx_path).filename().string() + " \u2014 not what ran");
  std::filesystem::remove(cubin);
  return why;
}

std::string sass_of_cubins(const std::vector<std::string>& cubin_paths,
                           const std::string& sass_path, const std::string& label_line) {
  const std::string cuobjdump = find_tool("cuobjdump");
  if (cuobjdump.empty()) return "no cuobjdump on PATH (nor in the CUDA toolkit)";
  std::string sass = label_line + "\n", out;
  for (const auto& cubin : cubin_paths) {
    if (run_command(quote(cuobjdump) + " -sass " + quote(cubin), out) != 0)
      return "cuobjdump -sass " + cubin + " failed: " + out;
    sass += out;
  }
  std::ofstream file(sass_path);
  file << sass;
  file.close();
  return file ? "" : sass_path + ": cannot write";
}

}  // namespace gpucmp::ptxtool
