// Whole runs of gpucmp-bench: OpenCL runners on the default device (PoCL
// without a GPU) at quick sizes, validated; JSON names, counters and context;
// CUDA benchmarks skipped where there is no GPU: no rows, listed in the context.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "bench_process.h"
#include "naming.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

struct QuickRunResult {
  ProcessResult process;
  json report;
};

// One quick run shared by the tests below (it takes a few seconds).
const QuickRunResult& quick_run() {
  static const QuickRunResult run = [] {
    const std::string out = temp_dir("quick-run") + "/out.json";
    ProcessResult process = run_bench(
        "--size quick --samples 3 --bw-bytes 4K,1M --mm-n 64,128 "
        "--cp-atoms 1000 --startup-samples 2 "
        "--benchmark_out=" +
        out + " --benchmark_out_format=json");
    json report;
    std::ifstream in(out);
    if (in) report = json::parse(in, nullptr, false);
    // Built in the return statement, never moved: QuickRunResult's implicit
    // move constructor would be noexcept around json's, which clang-tidy
    // (bugprone-exception-escape) cannot prove does not throw.
    return QuickRunResult{std::move(process), std::move(report)};
  }();
  return run;
}

// OpenCL variants built from PTX (opencl/programs.h): -ptx-as-built, -ptx-O0,
// -ptx-align, -ptx-from-nvcc, -auto-*, -hand-*.
bool built_from_ptx(const std::string& name) {
  for (const char* mark : {"-ptx-", "-auto-", "-hand-"})
    if (name.find(mark) != std::string::npos) return true;
  return false;
}

// The benchmarks the run skipped (the context's gpucmp.skipped_benchmarks):
// no report has a row for them.
std::vector<BenchName> skipped_benchmarks() {
  std::vector<BenchName> names;
  std::istringstream list(quick_run().report["context"].value("gpucmp.skipped_benchmarks", ""));
  for (std::string name; std::getline(list >> std::ws, name, ',');)
    if (const auto parsed = parse_bench_name(name)) names.push_back(*parsed);
  return names;
}

// The timed rows of `api` (startup/ rows: startup_rows_of).
std::vector<json> rows_of(const std::string& api, bool startup = false) {
  std::vector<json> rows;
  for (const auto& b : quick_run().report["benchmarks"]) {
    const auto name = parse_bench_name(b["name"].get<std::string>());
    if (name && name->api == api && (name->workload == "startup") == startup) rows.push_back(b);
  }
  return rows;
}

TEST(QuickRun, ExitsZeroAndWritesJson) {
  const QuickRunResult& r = quick_run();
  ASSERT_EQ(r.process.exit_code, 0) << r.process.output;
  ASSERT_TRUE(r.report.is_object()) << "unreadable JSON";
  ASSERT_TRUE(r.report.contains("benchmarks"));
}

// Every OpenCL kernel row says how its program was built (Api::variant_label,
// opencl/programs.h describe()); bandwidth copies and CLBlast build none.
TEST(QuickRun, OpenClRowsCarryTheirProgramAsLabel) {
  int labelled = 0;
  for (const auto& b : rows_of("opencl")) {
    const auto parsed = parse_bench_name(b["name"].get<std::string>());
    ASSERT_TRUE(parsed);
    const std::string label = b.value("label", "");
    if (parsed->workload == "bandwidth" || parsed->variant == "clblast") {
      EXPECT_EQ(label, "") << b["name"];
      continue;
    }
    EXPECT_EQ(label.rfind("from=source; base=" + parsed->variant, 0), 0u)
        << b["name"] << ": label '" << label << "'";
    ++labelled;
  }
  EXPECT_GT(labelled, 5);
}

TEST(QuickRun, EveryOpenClBenchmarkRanValidated) {
  const auto rows = rows_of("opencl");
  std::set<std::string> workloads, variants;
  for (const auto& b : rows) {
    const std::string name = b["name"];
    if (built_from_ptx(name)) continue;  // PtxVariantsRunOnNvidia...
    EXPECT_FALSE(b.value("error_occurred", false)) << name << ": " << b.value("error_message", "");
    ASSERT_TRUE(b.contains("max_rel_err")) << name;
    EXPECT_GE(b["max_rel_err"].get<double>(), 0.0) << name;
    EXPECT_TRUE(b.contains("GB/s") || b.contains("GFLOP/s")) << name;
    EXPECT_TRUE(b.contains("first_launch_ms")) << name;
    ASSERT_TRUE(b.contains("row_total_ms") && b.contains("row_samples_ms")) << name;
    EXPECT_GE(b["row_total_ms"].get<double>(), b["row_samples_ms"].get<double>()) << name;
    EXPECT_GE(b.value("row_prepare_ms", -1.0), 0.0) << name;
    const auto parsed = parse_bench_name(name);
    workloads.insert(parsed->workload);
    variants.insert(parsed->workload + "/" + parsed->variant);
  }
  // Every workload gpucmp-bench registered (the context's gpucmp.workloads,
  // in run order) ran on OpenCL. That every workload with runners is
  // registered, gpucmp-bench checks at start-up (check_workloads_registered;
  // tests/runner_catalog_test.cpp).
  std::set<std::string> registered;
  std::istringstream order(quick_run().report["context"].value("gpucmp.workloads", ""));
  for (std::string w; std::getline(order, w, ',');) registered.insert(w);
  EXPECT_GE(registered.size(), 17u) << "gpucmp.workloads: fewer workloads than gpucmp has";
  EXPECT_EQ(workloads, registered);
  for (const char* v : {"triad/base",
                        "mmnaive/base",
                        "bilinear/base",
                        "sort/bitonic",
                        "trapezoid/base",
                        "lavamd/base",
                        "layoutconv/base",
                        "bodies/base",
                        "bandwidth/h2d-pageable",
                        "bandwidth/h2d-pinned",
                        "bandwidth/h2d-mapped",
                        "bandwidth/d2h-pageable",
                        "bandwidth/d2h-pinned",
                        "bandwidth/d2h-mapped",
                        "bandwidth/d2d",
                        "matrixMul/tile16",
                        "matrixMul/tile32",
                        "matrixMul/tile16-aligned",
                        "matrixMul/tile32-aligned",
                        "cp/base",
                        "cp/unrollx8",
                        "cp/unrollx8-ieee",
                        "cp/unrollx8-fast",
                        "cp/unrollx8-fast-ftz",
                        "cp/unrollx8-byvalue",
                        "cp/unrollx8-ieee-byvalue",
                        "cp/unrollx8-fast-byvalue",
                        "cp/unrollx8-prefetch",
                        "cp/unrollx8-ieee-prefetch",
                        "cp/unrollx8-fast-prefetch",
                        "mriq/precise",
                        "mriq/fast",
                        "mriq/uniform-tile",
                        "mriq/uniform-tile-fast",
                        "mriq/precise-prefetch",
                        "mriq/fast-prefetch",
                        "mrifhd/precise",
                        "mrifhd/fast",
                        "mrifhd/uniform-tile",
                        "mrifhd/uniform-tile-fast",
                        "mrifhd/precise-prefetch",
                        "mrifhd/fast-prefetch",
                        "reduce/pipeline-regcap40"})
    EXPECT_TRUE(variants.count(v)) << "missing " << v;
}

// Every row a kernel of the suite times carries its place on the
// roofline (scripts/roofline.py), except the ceilings themselves and the
// host transfers (link traffic, not DRAM); flop / bytes as counted.
TEST(QuickRun, KernelRowsCarryTheirRooflineCounters) {
  int matrixmul_rows = 0;
  for (const auto& b : rows_of("opencl")) {
    const std::string name = b["name"];
    const auto parsed = parse_bench_name(name);
    if (!parsed || parsed->workload == "ceiling" || parsed->workload == "startup" ||
        (parsed->workload == "bandwidth" && parsed->variant.rfind("d2d", 0) != 0))
      continue;
    ASSERT_TRUE(b.contains("roofline_bytes")) << name;
    EXPECT_GT(b["roofline_bytes"].get<double>(), 0.0) << name;
    EXPECT_GE(b["roofline_flop"].get<double>(), 0.0) << name;
    if (name.rfind("matrixMul/opencl/tile16/n:64/", 0) == 0) {
      ++matrixmul_rows;
      EXPECT_DOUBLE_EQ(b["roofline_flop"].get<double>(), 2.0 * 64 * 64 * 64);
      EXPECT_DOUBLE_EQ(b["roofline_bytes"].get<double>(), 3.0 * 4 * 64 * 64);
    }
  }
  EXPECT_EQ(matrixmul_rows, 1);
}

TEST(QuickRun, MatrixMulRatesMatchTheirTime) {
  for (const auto& b : rows_of("opencl")) {
    const auto name = parse_bench_name(b["name"].get<std::string>());
    if (name->workload != "matrixMul" || b.value("error_occurred", false)) continue;
    const double n = std::stod(name->params.at(0).value);
    const double seconds = b["real_time"].get<double>() * 1e-6;  // microseconds
    EXPECT_NEAR(b["GFLOP/s"].get<double>(), 2 * n * n * n / seconds * 1e-9,
                1e-3 * b["GFLOP/s"].get<double>())
        << b["name"];
    if (name->variant.rfind("tile", 0) == 0) {
      EXPECT_TRUE(b.contains("build_ms")) << b["name"];
    }
  }
}

// One yardstick (docs/DESIGN.md, "Fairness rules"): every timed batch of
// either API asked for its two ends and nothing between (launch spans are
// off in this run), and an OpenCL launch enqueued exactly the commands its
// workload says a launch has (the count the launch-bound mark multiplies).
TEST(QuickRun, EveryBatchAsksForItsTwoEndsOnly) {
  int rows = 0;
  for (const char* api : {"opencl", "cuda"})
    for (const auto& b : rows_of(api)) {
      ++rows;
      ASSERT_TRUE(b.contains("timing_events")) << b["name"];
      EXPECT_EQ(b["timing_events"].get<double>(), 2.0) << b["name"];
      const std::string name = b["name"];
      if (name.find("/clblast/") != std::string::npos || name.find("/cub/") != std::string::npos ||
          name.find("/cublas/") != std::string::npos) {
        EXPECT_FALSE(b.contains("commands_per_launch")) << name << ": a library's dispatch";
        EXPECT_FALSE(b.contains("launch_bound")) << name;
        continue;
      }
      EXPECT_GE(b.value("commands_per_launch", 0.0), 1.0) << name;
      if (std::string(api) == "opencl") {
        ASSERT_TRUE(b.contains("commands_counted")) << b["name"];
        EXPECT_EQ(b["commands_counted"].get<double>(), b["commands_per_launch"].get<double>())
            << b["name"] << ": the workload's commands_per_launch is not what its launch enqueues";
      }
    }
  EXPECT_GT(rows, 50);
}

// Every hot row carries its API's launch floor, and the mark follows the
// ratio. (That the floor kernel's own row is launch-bound is held on a GPU
// only, GpuBothApisRunAndPair: on a CPU device two timings of one tiny
// kernel differ by more than the margin.)
TEST(QuickRun, HotRowsCarryTheLaunchBoundMark) {
  int rows = 0;
  for (const char* api : {"opencl", "cuda"})
    for (const auto& b : rows_of(api)) {
      if (!b.contains("commands_per_launch")) continue;  // a library's dispatch
      ++rows;
      ASSERT_TRUE(b.contains("launch_floor_us")) << b["name"];
      EXPECT_GT(b["launch_floor_us"].get<double>(), 0.0) << b["name"];
      const double ratio = b["launch_floor_ratio"].get<double>();
      EXPECT_NEAR(ratio,
                  b["real_time"].get<double>() /
                      (b["commands_per_launch"].get<double>() * b["launch_floor_us"].get<double>()),
                  1e-3 * ratio)
          << b["name"];
      EXPECT_EQ(b["launch_bound"].get<double>(), ratio <= 1.05 ? 1.0 : 0.0) << b["name"];
    }
  EXPECT_GT(rows, 50);
}

TEST(QuickRun, ContextNamesDevicesVersionsAndOptions) {
  const json& ctx = quick_run().report["context"];
  for (const char* key : {"gpucmp.revision", "gpucmp.size", "gpucmp.math", "opencl.device",
                          "opencl.platform_version", "opencl.driver", "opencl.build_options"})
    EXPECT_TRUE(ctx.contains(key)) << key;
}

// Skipped benchmarks (no device for the API, a variant the device cannot
// run) are not rows: a dashboard must not count them as errors. The context
// and stderr list them instead.
TEST(QuickRun, NoRowIsAnErrorOrASkip) {
  for (const auto& b : quick_run().report["benchmarks"]) {
    EXPECT_FALSE(b.value("error_occurred", false))
        << b["name"] << ": " << b.value("error_message", "");
    EXPECT_FALSE(b.value("skipped", false)) << b["name"] << ": " << b.value("skip_message", "");
  }
  const json& ctx = quick_run().report["context"];
  ASSERT_TRUE(ctx.contains("gpucmp.skipped_count")) << ctx.dump(1);
  EXPECT_EQ(ctx["gpucmp.skipped_count"].get<std::string>(),
            std::to_string(skipped_benchmarks().size()));
  EXPECT_TRUE(ctx.contains("gpucmp.skipped"));
  EXPECT_FALSE(ctx.contains("gpucmp.partial"));
}

TEST(QuickRun, CudaBenchmarksAreSkippedAndListedWithoutGpu) {
  if (cuda_device_present()) GTEST_SKIP() << "a CUDA device is usable here";
  EXPECT_TRUE(rows_of("cuda").empty());
  EXPECT_TRUE(rows_of("cuda", /*startup=*/true).empty());
#ifdef GPUCMP_HAVE_CUDA
  const json& ctx = quick_run().report["context"];
  EXPECT_NE(ctx.value("gpucmp.skipped", "").find("cuda: no CUDA device"), std::string::npos)
      << ctx.value("gpucmp.skipped", "");
  int cuda = 0;
  for (const auto& name : skipped_benchmarks()) cuda += name.api == "cuda";
  EXPECT_GT(cuda, 0) << "CUDA benchmarks should still be listed as skipped";
  // One warning line on stderr for the API, with the count.
  const std::string warning =
      "warning: cuda: " + std::to_string(cuda) + " benchmarks skipped: no CUDA device";
  EXPECT_NE(quick_run().process.output.find(warning), std::string::npos)
      << "want '" << warning << "' in\n"
      << quick_run().process.output;
#endif
}

TEST(QuickRun, GpuBothApisRunAndPair) {
  if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device here";
  for (const auto& b : rows_of("cuda"))
    EXPECT_FALSE(b.value("error_occurred", false)) << b["name"] << b.value("error_message", "");
  EXPECT_NE(quick_run().process.output.find("Paired summary (median"), std::string::npos);
  // The floor kernel's own rows run at their API's floor.
  int floors = 0;
  for (const char* api : {"opencl", "cuda"})
    for (const auto& b : rows_of(api))
      if (b["name"].get<std::string>().rfind(std::string("ceiling/") + api + "/launch/", 0) == 0) {
        ++floors;
        EXPECT_EQ(b.value("launch_bound", 0.0), 1.0) << b["name"] << " " << b.dump();
      }
  EXPECT_EQ(floors, 2);
}

TEST(QuickRun, ParboilRowsReportTimePerInteraction) {
  for (const auto& b : rows_of("opencl")) {
    const auto name = parse_bench_name(b["name"].get<std::string>());
    if (name->workload == "cp") {
      EXPECT_GT(b.value("ps_per_interaction", 0.0), 0.0) << b["name"];
    }
    if (name->workload == "mriq" || name->workload == "mrifhd") {
      EXPECT_GT(b.value("ps_per_voxel_k", 0.0), 0.0) << b["name"];
    }
  }
}

// PTX reloaded through OpenCL needs PTX binaries: skipped, not failed,
// elsewhere (listed in the context, no row).
TEST(QuickRun, PtxVariantsRunOnNvidiaAndSkipElsewhere) {
  int seen = 0;
  for (const auto& b : rows_of("opencl")) {
    const auto name = parse_bench_name(b["name"].get<std::string>());
    if (!built_from_ptx(name->variant)) continue;
    ++seen;
    EXPECT_TRUE(b.contains("build_ms")) << b["name"];
  }
  int skipped = 0;
  for (const auto& name : skipped_benchmarks())
    skipped += name.api == "opencl" && name.workload != "startup" && built_from_ptx(name.variant);
  if (skipped > 0) {
    EXPECT_NE(quick_run()
                  .report["context"]
                  .value("gpucmp.skipped", "")
                  .find("opencl: PTX variants need NVIDIA"),
              std::string::npos);
  }
  // matrixMul, 2 sizes x (tile16: 3 controls (as-built, O0, align) + 6 auto
  // (clean .. licm-align) + 5 hand + from-nvcc; tile32: 3 + 6 + from-nvcc;
  // tile16/tile32-aligned-ptx-shared32); cp, mriq, mrifhd: 3 controls + 6
  // auto each, and cp's unrollx8-fast-ptx-ftz and unrollx8-fast-byvalue-ptx-ftz;
  // advection's async-ptx-cpasync and async-ptx-cpasync-nobar at its one quick grid.
  // The -aligned variants are built from source and run everywhere.
  EXPECT_EQ(seen + skipped, 2 * (15 + 10 + 2) + 3 * 9 + 2 + 2);
}

// One startup row per OpenCL kernel built from source (and its PTX reloads,
// skipped off NVIDIA), at each workload's first size: validated, with the
// build and the first launch apart.
TEST(QuickRun, StartupRowsPriceBuildAndFirstLaunch) {
  std::set<std::string> from_source;
  for (const auto& b : rows_of("opencl", /*startup=*/true)) {
    const std::string name = b["name"];
    EXPECT_FALSE(b.value("error_occurred", false)) << name << ": " << b.value("error_message", "");
    EXPECT_GT(b.value("build_ms", 0.0), 0.0) << name;
    EXPECT_GT(b.value("first_launch_ms", 0.0), 0.0) << name;
    EXPECT_EQ(b.value("samples", 0.0), 2.0) << name;
    if (!built_from_ptx(name)) from_source.insert(parse_bench_name(name)->variant);
  }
  for (const char* v : {"matrixMul-tile16", "matrixMul-tile32", "matrixMul-tile16-aligned",
                        "cp-base", "cp-unrollx8", "mriq-precise", "mrifhd-fast"})
    EXPECT_TRUE(from_source.count(v)) << "missing startup/opencl/" << v;
  EXPECT_FALSE(from_source.count("matrixMul-clblast")) << "vendor libraries have no startup row";
  for (const auto& b : rows_of("opencl", true))
    EXPECT_EQ(b["name"].get<std::string>().find("n:128"), std::string::npos)
        << "startup rows only at the first size: " << b["name"];
}

TEST(ListDevices, NamesTheOpenClPlatform) {
  const ProcessResult r = run_bench("--list-devices");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("OpenCL platform 0:"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gpucmp::test
