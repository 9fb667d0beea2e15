// Runs gpucmp-bench as a child process and captures what it printed.
#pragma once
#include <string>

namespace gpucmp::test {

struct ProcessResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// `args` are appended to the gpucmp-bench path and run by /bin/sh; `env` is
// prefixed (e.g. "OCL_ICD_VENDORS=/nonexistent").
ProcessResult run_bench(const std::string& args, const std::string& env = "");

// Runs `command` by /bin/sh, stdout and stderr together (e.g. gpucmp-ptx).
ProcessResult run_command(const std::string& command);

// A fresh temporary directory for one test, removed with everything in it when
// the test process exits.
std::string temp_dir(const std::string& name);

// True when a CUDA device is usable here (gpucmp-bench --list-devices says so).
bool cuda_device_present();

}  // namespace gpucmp::test
