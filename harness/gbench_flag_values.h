// The values of Google Benchmark's own flags, checked by gpucmp-bench before
// Google Benchmark sees them. Left to Google Benchmark, a bad value is lost
// or misread: --benchmark_repetitions=-3 ended in "vector::reserve" (exit 1),
// =0 ran nothing and said nothing, --benchmark_format=xml printed the usage
// and exited 0, and a value it cannot parse stayed on the command line for
// gpucmp's parser to call "not expected". Every flag here gets one line
// "--flag=value: <rule>" and exit code 2.
#pragma once

namespace gpucmp {

// Throws UsageError for the first --benchmark_* or --v flag in argv whose
// value Google Benchmark would not take as meant (or that has no effect in
// gpucmp-bench: --benchmark_min_time, each benchmark being one iteration
// that samples by gpucmp's rules), and for --benchmark_* names Google
// Benchmark does not have. Also checks BENCHMARK_FORMAT and
// BENCHMARK_OUT_FORMAT in the environment, which Google Benchmark reads too.
void check_gbench_flags(int argc, char** argv);

}  // namespace gpucmp
