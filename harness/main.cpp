// gpucmp-bench: one Google Benchmark binary, every workload, both APIs.
#include <benchmark/benchmark.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "api_registry.h"
#include "context.h"
#include "errors.h"
#include "gbench_flag_values.h"
#include "gbench_flags.h"
#include "interrupt.h"
#include "mpi_split.h"
#include "outcome.h"
#include "output_file.h"
#include "progress.h"
#include "result_reporter.h"
#include "runner_table.h"
#include "skip_log.h"
#include "tune.h"
#include "workload_registry.h"

namespace {

using namespace gpucmp;

// Under mpirun every rank parses the same options: rank 0 alone says what was wrong.
int usage_error(const std::string& line) {
  if (mpi::rank() == 0) std::cerr << "gpucmp-bench: error: " << line << "\n";
  return kExitUsage;
}

// The APIs this program was linked with, from the build (CMakeLists.txt):
// each must have registered itself (api_registry.h).
std::vector<std::string> built_apis() {
  std::vector<std::string> names;
  std::string list = GPUCMP_BUILT_APIS;
  for (size_t start = 0; start <= list.size();) {
    const size_t end = std::min(list.find(',', start), list.size());
    if (end > start) names.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

std::vector<std::unique_ptr<Api>> all_apis() {
  auto apis = make_registered_apis(built_apis());
  // A shared variant without a runner on a built API stops the run here.
  std::vector<std::string> names;
  names.reserve(apis.size());
  for (const auto& api : apis) names.push_back(api->name());
  check_runner_catalog(names);
  return apis;
}

// The OpenCL ICD hint, when NVIDIA's OpenCL is installed but not registered.
std::string api_hint(const ApiSet& apis, const std::string& name) {
  ContextList ctx;
  apis.at(name)->add_context(ctx);
  for (const auto& [key, value] : ctx)
    if (key == name + ".icd_hint") return value;
  return "";
}

// Empty when some API has a usable device; else why none has.
std::string none_usable(const std::vector<std::unique_ptr<Api>>& apis) {
  std::string why;
  for (const auto& api : apis) {
    if (api->unavailable().empty()) return "";
    why += (why.empty() ? "" : "; ") + api->name() + ": " + api->unavailable();
  }
  return why;
}

bool wants_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) return true;
  return false;
}

// The whole program; main() turns what escapes it into an exit code.
int bench_main(int argc, char** argv) {
  Options opts;
  CLI::App app{
      "gpucmp-bench: CUDA against OpenCL on the same GPU, paired workloads.\n"
      "Google Benchmark's --benchmark_* options are accepted too."};
  app.name("gpucmp-bench");
  add_common_options(app, opts);
  auto workloads = make_registered_workloads();
  for (auto& w : workloads) w->add_options(app);
  if (wants_help(argc, argv)) {
    std::cout << app.help() << "\nGoogle Benchmark options:\n";
    char* help_argv[] = {argv[0], const_cast<char*>("--help"), nullptr};
    int help_argc = 2;
    benchmark::Initialize(&help_argc, help_argv);  // prints its usage and exits
    return kExitOk;
  }

  spdlog::set_default_logger(spdlog::stderr_color_st("gpucmp"));
  spdlog::set_pattern("gpucmp-bench: %l: %v");
  // Build and module-load costs are measured, not the driver's compile cache
  // (~/.nv/ComputeCache): off before any API starts, unless the user chose.
  setenv("CUDA_CACHE_DISABLE", "1", /*overwrite=*/0);
  const std::string repetitions = benchmark_flag(argc, argv, "benchmark_repetitions");
  const ReportFlags report = report_flags(argc, argv);
  const bool interleaved = random_interleaving(argc, argv);
  try {
    check_gbench_flags(argc, argv);  // before Google Benchmark reads them
  } catch (const UsageError& e) {
    return usage_error(e.what());
  }
  GbenchArgv gbench(argc, argv, report);
  argc = gbench.argc;
  argv = gbench.argv();
  benchmark::Initialize(&argc, argv);  // takes the --benchmark_* options out of argv
  const std::string filter = benchmark::GetBenchmarkFilter();
  try {
    app.parse(argc, argv);
    bool wrote = false;  // files asked for instead of a run: written, and nothing runs
    for (const auto& w : workloads) wrote = w->write_requested_files(opts) || wrote;
    if (wrote) return kExitOk;
    set_launch_spans(opts.launch_gaps);
    opts.repetitions = repetitions.empty() ? 1 : std::atoi(repetitions.c_str());
    opts.interleaved = interleaved;
    bool split_rows = false;  // besides --split's: a workload's own (advection's two GPUs)
    for (const auto& w : workloads) split_rows = split_rows || w->has_split_rows();
    opts.split.workload_rows = split_rows;
    check_split_options(opts.split, split_rows);
    check_no_effect_options(app, opts);
    check_filter(filter);
    mpi::start(opts.split);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  } catch (const UsageError& e) {
    return usage_error(e.what());
  }

  auto owned = all_apis();
  check_workloads_registered(workloads);  // a runner without its workload stops the run
  ApiSet apis;
  for (auto& api : owned) apis[api->name()] = api.get();
  if (opts.list_devices) {
    for (auto& api : owned) api->list_devices(std::cout);
    return kExitOk;
  }

  // Device choice may fail on one MPI rank alone: every rank learns it here,
  // before the ranks gather their devices, and rank 0 says what failed.
  mpi::Agreement chosen;
  try {
    if (opts.cuda_device >= 0 && !apis.count("cuda"))
      throw UsageError("unknown CUDA device " + std::to_string(opts.cuda_device) +
                       " (this build has no CUDA side)");
    if (!opts.split.cuda_devices.empty() && !apis.count("cuda"))
      throw UsageError("--cuda-split-devices " + std::to_string(opts.split.cuda_devices[0]) +
                       ": unknown CUDA device (this build has no CUDA side)");
    for (auto& api : owned) api->select(opts);
  } catch (const UsageError& e) {
    chosen = {kExitUsage, e.what()};
  } catch (const std::exception& e) {
    chosen = {kExitFailed, e.what()};
  }
  if (chosen = mpi::checkpoint(chosen); chosen.code == kExitUsage) return usage_error(chosen.error);
  if (chosen.code != kExitOk) {
    if (mpi::rank() == 0) std::cerr << "gpucmp-bench: error: " << chosen.error << "\n";
    return chosen.code;
  }
  try {
    mpi::install_executors(apis);
    share_device_peaks(apis);
    for (const auto& [key, value] : collect_context(opts, apis))
      benchmark::AddCustomContext(key, value);
    std::string order;  // the workloads in registration order, for dashboards
    for (const auto& w : workloads) order += (order.empty() ? "" : ",") + w->name();
    benchmark::AddCustomContext("gpucmp.workloads", order);
    ContextList stated;
    for (const auto& w : workloads) w->add_context(stated);
    for (const auto& [key, value] : stated) benchmark::AddCustomContext(key, value);
    for (auto& w : workloads) {
      const std::size_t first = measured_rows().size();
      w->register_benchmarks(opts, apis);
      if (opts.tune) register_tuned_rows(*w, first, apis, opts);  // after their candidates
    }
    register_deferred_benchmarks();
    if (count_selected(registered_names(), filter) == 0)
      throw UsageError("--benchmark_filter=" + filter +
                       ": matches no benchmark (--benchmark_list_tests lists them)");
    // An API without a device: its benchmarks stay registered (listed), do
    // nothing when run, and no report shows them (result_reporter.h).
    std::set<std::string> skipped_apis;
    for (auto& api : owned)
      if (!api->unavailable().empty()) skipped_apis.insert(api->name());
    progress_plan(opts.progress, registered_names(), filter,
                  repetitions.empty() ? 1 : std::atoi(repetitions.c_str()), skipped_apis);
  } catch (const UsageError& e) {
    return usage_error(e.what());
  }
  if (const std::string why = none_usable(owned); !why.empty())
    return usage_error("no usable device: " + why);
  try {
    if (!report.out.empty()) check_out_path(report.out);
  } catch (const UsageError& e) {
    return usage_error(e.what());
  }
  // --split-over mpi: every rank got this far, or all stop; then rank 0 runs
  // the benchmarks and the other ranks serve its split rows.
  if (const int code = mpi::agree(kExitOk); code != kExitOk) return code;
  if (mpi::rank() > 0) return mpi::serve();
  for (auto& api : owned)  // the first usable API's device
    if (api->unavailable().empty()) {
      spdlog::info("{}: {}", api->name(), api->info().name);
      break;
    }
  for (auto& api : owned)
    if (api->unavailable().empty())
      if (auto hint = api_hint(apis, api->name()); !hint.empty()) spdlog::warn("{}", hint);

  const auto display = make_display_reporter();
  const auto file =
      report.out.empty() ? nullptr : make_file_reporter(report.out_format, report.out);
  {
    const interrupt::Guard signals;  // a signal stops the run; the reports still end well
    benchmark::RunSpecifiedBenchmarks(display.get(), file.get());
    release_kept_row();
  }
  benchmark::Shutdown();

  for (const auto& line : skip_log().warnings()) spdlog::warn("{}", line);
  outcome().print_paired_summary(std::cerr);
  for (const auto& line : outcome().failures()) std::cerr << "FAILED: " << line << "\n";
  // Stopped by a signal: 128 + its number, even where a benchmark failed
  // (its FAILED line is above): the run is incomplete either way.
  const int sig = interrupt::signal_number();
  if (sig) {
    const int done = completed_benchmarks();
    spdlog::warn("interrupted by {} after {} benchmark{}: the reports hold {}, marked partial",
                 interrupt::signal_name(sig), done, done == 1 ? "" : "s",
                 done == 1 ? "it" : "those");
  }
  // A report that did not reach its file or stdout is lost: exit code 2.
  std::string lost = file_report_error();
  try {
    check_stdout_written();
  } catch (const UsageError& e) {
    if (lost.empty()) lost = e.what();
  }
  if (!lost.empty()) return usage_error(lost);
  return sig ? interrupt::exit_code(sig) : outcome().exit_code();
}

}  // namespace

// What bench_main does not handle itself (e.g. a runner table without a runner
// for a shared variant, an API call failing while listing devices) ends the
// run as run_guarded (harness/measure.cpp) ends a benchmark: one line on
// stderr, the build log below it for a BuildError, and the exit code of
// harness/errors.h (2 for bad input, 1 for anything else).
int main(int argc, char** argv) {
  int code = kExitFailed;
  try {
    code = bench_main(argc, argv);
  } catch (const BuildError& e) {
    std::cerr << "gpucmp-bench: error: " << e.what() << "\n--- build log ---\n"
              << e.log << "\n--- end of build log ---\n";
    code = kExitUsage;
  } catch (const UsageError& e) {
    code = usage_error(e.what());
  } catch (const std::exception& e) {
    std::cerr << "gpucmp-bench: error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "gpucmp-bench: error: unknown exception\n";
  }
  mpi::finish(code);  // --split-over mpi: stops the other ranks, ends MPI
  return code;
}
