// Google Benchmark's flags that gpucmp-bench must see itself, and the bad
// values it must refuse before anything runs (besides gbench_flag_values.h): Google Benchmark finds
// a filter that is not a regular expression only when the run starts (it says "Could not compile
// benchmark re" and exits 0), and a --benchmark_out it cannot open only after every device was set
// up ("invalid file name", exit 1).
#pragma once
#include <string>
#include <vector>

namespace gpucmp {

struct ReportFlags {
  std::string out;                  // --benchmark_out; empty: no file report
  std::string out_format = "json";  // --benchmark_out_format
};

// Read as Google Benchmark reads them (--flag=value, the last one winning,
// else the environment variable BENCHMARK_OUT / BENCHMARK_OUT_FORMAT); call
// before benchmark::Initialize, which takes them out of argv.
ReportFlags report_flags(int argc, char** argv);

// Whether Google Benchmark will interleave the repetitions of different rows
// (--benchmark_enable_random_interleaving, alone or =true/yes/on/1, the last
// one winning, else BENCHMARK_ENABLE_RANDOM_INTERLEAVING); call before
// benchmark::Initialize.
bool random_interleaving(int argc, char** argv);

// Throws UsageError naming --benchmark_filter when `filter` (after a leading
// '-', which negates it) is not an extended regular expression, the syntax
// Google Benchmark compiles it with.
void check_filter(const std::string& filter);

// Throws UsageError naming the path and the reason when the report cannot be
// written to `path` (output_file.h), trying without leaving a file behind.
void check_out_path(const std::string& path);

// The command line Google Benchmark parses: argv, and when a --benchmark_out
// file is asked for (flag or BENCHMARK_OUT), --benchmark_out=/dev/null after
// it. Google Benchmark opens (and truncates) its --benchmark_out file when
// the run starts, losing the old report to a run that is then killed;
// gpucmp writes the file itself once the report is complete
// (result_reporter.h) and gives Google Benchmark /dev/null to open.
class GbenchArgv {
 public:
  GbenchArgv(int argc, char** argv, const ReportFlags& report);
  GbenchArgv(const GbenchArgv&) = delete;
  GbenchArgv& operator=(const GbenchArgv&) = delete;
  int argc = 0;
  char** argv() { return args_.data(); }

 private:
  std::vector<char*> args_;  // argv's pointers, the extra flag, nullptr
};

}  // namespace gpucmp
