// reduce and scan at any n >= 1, as CUB takes any num_items: every algorithm
// on the default OpenCL device (PoCL without a GPU; on a GPU machine CUDA's
// rows and CUB's too) at n that are no whole block, no whole 4-word vector
// and no whole tile (1, 5, 255, 257, 1000001), int32 and the non-commutative
// affine16, each row validated against its CPU reference before timing.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "bench_process.h"
#include "naming.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

const char* const kReduceN = "1,5,255,257,1000001";
const char* const kScanN = "1,255,257,1000001";

struct AnyNRun {
  ProcessResult process;
  json report;
};

const AnyNRun& any_n_run() {
  static const AnyNRun run = [] {
    const std::string out = temp_dir("agpu-any-n") + "/out.json";
    ProcessResult process = run_bench(
        std::string("--samples 2 --startup off --benchmark_filter='^(reduce|scan)/' ") +
        "--reduce-type int32,affine16 --scan-type int32,affine16 --scan-alpha 4,8 --reduce-n " +
        kReduceN + " --scan-n " + kScanN + " --benchmark_out=" + out +
        " --benchmark_out_format=json");
    json report;
    std::ifstream in(out);
    if (in) report = json::parse(in, nullptr, false);
    return AnyNRun{std::move(process), std::move(report)};
  }();
  return run;
}

TEST(AgpuAnyN, EveryRowRunsAndValidates) {
  const AnyNRun& r = any_n_run();
  ASSERT_EQ(r.process.exit_code, 0) << r.process.output;
  ASSERT_TRUE(r.report.is_object()) << r.process.output;
  // (workload, variant without CUB) -> the sizes it ran at, OpenCL's rows.
  std::map<std::string, std::set<std::string>> sizes;
  for (const auto& b : r.report["benchmarks"]) {
    EXPECT_FALSE(b.value("error_occurred", false)) << b.dump();
    const auto name = parse_bench_name(b["name"].get<std::string>());
    ASSERT_TRUE(name) << b["name"];
    if (name->api != "opencl") continue;
    for (const auto& p : name->params)
      if (p.name == "n") sizes[name->workload + "/" + name->variant].insert(p.value);
  }
  const std::set<std::string> reduce_n = {"1", "5", "255", "257", "1000001"};
  const std::set<std::string> scan_n = {"1", "255", "257", "1000001"};
  for (const char* v : {"reduce/tree", "reduce/cascading", "reduce/pipeline"})
    EXPECT_EQ(sizes[v], reduce_n) << v << "\n" << r.process.output;
  for (const char* v : {"scan/alpha", "scan/lookback", "scan/onepass"})
    EXPECT_EQ(sizes[v], scan_n) << v << "\n" << r.process.output;
}

TEST(AgpuAnyN, ZeroWordsIsRefused) {  // the one size no longer taken
  for (const char* option : {"--reduce-n 0", "--scan-n 0"}) {
    const ProcessResult r = run_bench(std::string(option) + " --benchmark_filter=^nothing");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(option), std::string::npos) << r.output;
  }
}

}  // namespace
}  // namespace gpucmp::test
