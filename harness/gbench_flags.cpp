#include "gbench_flags.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "errors.h"
#include "progress.h"

namespace gpucmp {

namespace {
std::string flag_or_env(int argc, char** argv, const char* flag, const char* env,
                        const std::string& fallback) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind(std::string("--") + flag + "=", 0) == 0)
      return benchmark_flag(argc, argv, flag);
  const char* value = std::getenv(env);
  return value ? value : fallback;
}
}  // namespace

ReportFlags report_flags(int argc, char** argv) {
  ReportFlags f;
  f.out = flag_or_env(argc, argv, "benchmark_out", "BENCHMARK_OUT", "");
  f.out_format = flag_or_env(argc, argv, "benchmark_out_format", "BENCHMARK_OUT_FORMAT", "json");
  return f;
}

void check_filter(const std::string& filter) {
  const std::string re = !filter.empty() && filter[0] == '-' ? filter.substr(1) : filter;
  try {
    const std::regex compiled(re, std::regex::extended);
    (void)compiled;
  } catch (const std::regex_error& e) {
    throw UsageError("--benchmark_filter='" + filter + "': not a valid regular expression (" +
                     e.what() + ")");
  }
}

void check_out_path(const std::string& path) {
  // Opened the way the report will be (for writing), without truncating a
  // file that a later usage error would then have destroyed for nothing.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0)
    throw UsageError("--benchmark_out=" + path + ": cannot write the report there (" +
                     std::strerror(errno) + ")");
  ::close(fd);
}

}  // namespace gpucmp
