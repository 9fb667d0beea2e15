// Google Benchmark's flags that gpucmp-bench must see itself, and the bad
// values it must refuse before anything runs: Google Benchmark finds a
// filter that is not a regular expression only when the run starts (it says
// "Could not compile benchmark re" and exits 0), and a --benchmark_out it
// cannot open only after every device was set up ("invalid file name", exit 1).
#pragma once
#include <string>

namespace gpucmp {

struct ReportFlags {
  std::string out;                  // --benchmark_out; empty: no file report
  std::string out_format = "json";  // --benchmark_out_format
};

// Read as Google Benchmark reads them (--flag=value, the last one winning,
// else the environment variable BENCHMARK_OUT / BENCHMARK_OUT_FORMAT); call
// before benchmark::Initialize, which takes them out of argv.
ReportFlags report_flags(int argc, char** argv);

// Throws UsageError naming --benchmark_filter when `filter` (after a leading
// '-', which negates it) is not an extended regular expression, the syntax
// Google Benchmark compiles it with.
void check_filter(const std::string& filter);

// Throws UsageError naming the path and the reason when the report cannot be
// written to `path`. Creates the file when it does not exist (Google
// Benchmark truncates it when the run starts).
void check_out_path(const std::string& path);

}  // namespace gpucmp
