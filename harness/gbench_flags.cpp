#include "gbench_flags.h"

#include <sys/stat.h>

#include <cctype>
#include <cstdlib>

#include "errors.h"
#include "name_filter.h"
#include "output_file.h"
#include "progress.h"
#include "run_journal.h"

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

bool random_interleaving(int argc, char** argv) {
  const std::string flag = "--benchmark_enable_random_interleaving";
  std::string value;
  bool given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == flag) {
      value = "true";
      given = true;
    } else if (arg.rfind(flag + "=", 0) == 0) {
      value = arg.substr(flag.size() + 1);
      given = true;
    }
  }
  if (!given) {
    const char* env = std::getenv("BENCHMARK_ENABLE_RANDOM_INTERLEAVING");
    value = env ? env : "";
  }
  for (char& c : value) c = char(std::tolower(static_cast<unsigned char>(c)));
  return value == "true" || value == "yes" || value == "on" || value == "1";
}

ReportFlags report_flags(int argc, char** argv) {
  ReportFlags f;
  f.out = flag_or_env(argc, argv, "benchmark_out", "BENCHMARK_OUT", "");
  f.out_format = flag_or_env(argc, argv, "benchmark_out_format", "BENCHMARK_OUT_FORMAT", "json");
  return f;
}

void check_filter(const std::string& filter) { (void)NameFilter(filter); }

void check_out_path(const std::string& path) {
  if (const std::string why = why_cannot_write(path); !why.empty())
    throw UsageError("--benchmark_out=" + path + ": cannot write the report there (" + why + ")");
  // A journal left there holds the rows of a run that stopped before its
  // report: a new run would start it afresh and lose them.
  const std::string journal = RunJournal::path_for(path);
  struct stat st {};
  if (::stat(journal.c_str(), &st) == 0 && st.st_size > 0)
    throw UsageError("--benchmark_out=" + path + ": " + journal +
                     " holds the rows of an earlier run that stopped before its report "
                     "(make the report with scripts/journal_report.py, or remove it)");
}

GbenchArgv::GbenchArgv(int argc_in, char** argv_in, const ReportFlags& report) {
  static char dev_null[] = "--benchmark_out=/dev/null";
  args_.assign(argv_in, argv_in + argc_in);
  if (!report.out.empty()) args_.push_back(dev_null);
  argc = int(args_.size());
  args_.push_back(nullptr);
}

}  // namespace gpucmp
