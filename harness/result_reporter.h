// The reports of a run: Google Benchmark's own reporters (console, JSON, CSV,
// as --benchmark_format and --benchmark_out_format choose), wrapped so that
//  - a run that gave no result (skip_log.h: skipped because the API or the
//    device cannot run it, or abandoned by an interrupt) is in no report: no
//    error row for a dashboard to count; the console shows a skipped one as
//    "<name> skipped: <why>" (not "ERROR OCCURRED"), the JSON context lists it;
//  - a JSON or CSV report is rendered when the run ends (normally or by a
//    signal, interrupt.h), so that its context can say what only the end
//    knows: which benchmarks were skipped, and whether the run was cut short
//    (CSV: in the context lines above the table).
// The same on Google Benchmark 1.7 (skips are errors there) and 1.8+
// (SkipWithMessage): a JSON report never has a skipped or error row for an
// unavailable API or variant.
#pragma once
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "api.h"

namespace gpucmp {

// The context keys added when the run ends (every JSON report has them):
//   gpucmp.skipped             "none", or per API the reasons with their counts
//                              ("cuda: no CUDA device (62 benchmarks)")
//   gpucmp.skipped_count       how many benchmarks were skipped ("0")
//   gpucmp.skipped_benchmarks  their names (BenchName::str()), ", "-separated
//   gpucmp.partial             only after a signal: "interrupted by SIGTERM after
//                              N benchmarks; the rest did not run" (the skipped
//                              keys then cover the benchmarks the run reached)
// `completed`: benchmarks (names) with a row in the report.
ContextList final_context(int completed);

// The display reporter of --benchmark_format (stdout), wrapped.
std::unique_ptr<benchmark::BenchmarkReporter> make_display_reporter();
// The file reporter of --benchmark_out_format ("json", "console", "csv"),
// wrapped. It writes `path` itself, whole, when the run ends
// (write_output_file, output_file.h): an old report there is replaced only
// by a complete one, never truncated first. It ignores the stream Google
// Benchmark opens for it (/dev/null, gbench_flags.h).
std::unique_ptr<benchmark::BenchmarkReporter> make_file_reporter(const std::string& format,
                                                                 const std::string& path);

// The one line saying why the file report could not be written
// ("--benchmark_out=F: cannot write: No space left on device"), "" if it was
// (or none was asked for).
std::string file_report_error();

// Benchmarks (names) with at least one row reported so far.
int completed_benchmarks();

}  // namespace gpucmp
