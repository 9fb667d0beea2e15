// Error kinds and the process exit codes they map to (docs/DESIGN.md
// "Conventions").
#pragma once
#include <stdexcept>
#include <string>

namespace gpucmp {

enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2 };

// Bad options, sizes, devices, files or kernels given by the user: exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A failing API call or a validation mismatch: exit code 1.
struct ApiError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The API has no usable device here (e.g. CUDA without a GPU): the benchmark is
// skipped with this message and the run is not a failure.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace gpucmp

namespace gpucmp {

// A kernel that does not compile: a usage error whose build log is shown below
// the one-line message.
struct BuildError : UsageError {
  BuildError(const std::string& line, std::string build_log)
      : UsageError(line), log(std::move(build_log)) {}
  std::string log;
};

}  // namespace gpucmp
