#include "bench_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <vector>

namespace gpucmp::test {

ProcessResult run_bench(const std::string& args, const std::string& env) {
  return run_command(env + " " + GPUCMP_BENCH_PATH + " " + args);
}

ProcessResult run_command(const std::string& command) {
  const std::string cmd = command + " 2>&1";
  ProcessResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), int(buf.size()), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

namespace {

// The directories temp_dir made, removed when the process exits (a test that
// fails keeps nothing: its output is in CTest's log).
class MadeDirs {
 public:
  MadeDirs() = default;
  MadeDirs(const MadeDirs&) = delete;
  MadeDirs& operator=(const MadeDirs&) = delete;
  ~MadeDirs() {
    for (const auto& dir : dirs_) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  }
  void add(const std::filesystem::path& dir) { dirs_.push_back(dir); }

 private:
  std::vector<std::filesystem::path> dirs_;
};

MadeDirs& made_dirs() {
  static MadeDirs dirs;
  return dirs;
}

}  // namespace

std::string temp_dir(const std::string& name) {
  // Per process: CTest runs several test executables at once.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gpucmp-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  made_dirs().add(dir);
  return dir.string();
}

bool cuda_device_present() {
  static const bool present =
      run_bench("--list-devices").output.find("CUDA device 0:") != std::string::npos;
  return present;
}

}  // namespace gpucmp::test
