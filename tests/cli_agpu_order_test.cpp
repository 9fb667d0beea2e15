// The non-commutative check: reduce and scan over affine16 words
// (the 2x2 matrix product of harness/workloads/agpu/word_type.h) on the
// default OpenCL device (PoCL without a GPU; on a GPU machine CUDA's rows
// too). Every row must be validated; reduce's counter keeps_order must say
// that tree and pipeline returned the ordered product and cascading, at 2^22
// words (more than one vector per thread on any device up to 1024 SMs), did
// not (it is checked against the product in its own order); CUB's reduce is
// skipped, its scan validated; scan's onepass rows at alpha 1 (not compiled)
// skipped, the others validated, the odd n 1000192 included.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "bench_process.h"
#include "naming.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

struct OrderRun {
  ProcessResult process;
  json report;
};

const OrderRun& order_run() {
  static const OrderRun run = [] {
    const std::string out = temp_dir("agpu-order") + "/out.json";
    ProcessResult process = run_bench(
        "--samples 2 --startup off --benchmark_filter='^(reduce|scan)/' --reduce-type affine16 "
        "--scan-type affine16 --reduce-n 65536,4194304 --scan-n 65536,1000192 --scan-alpha 1,8,32 "
        "--benchmark_out=" +
        out + " --benchmark_out_format=json");
    json report;
    std::ifstream in(out);
    if (in) report = json::parse(in, nullptr, false);
    return OrderRun{std::move(process), std::move(report)};
  }();
  return run;
}

std::vector<std::pair<BenchName, json>> rows() {
  std::vector<std::pair<BenchName, json>> out;
  for (const auto& b : order_run().report["benchmarks"])
    if (const auto name = parse_bench_name(b["name"].get<std::string>()))
      out.emplace_back(*name, b);
  return out;
}

TEST(AgpuOrder, RunExitsZero) {
  EXPECT_EQ(order_run().process.exit_code, 0) << order_run().process.output;
  ASSERT_TRUE(order_run().report.is_object()) << order_run().process.output;
}

TEST(AgpuOrder, EveryRowIsValidatedAndBuiltForAffine16) {
  int opencl_rows = 0;
  for (const auto& [name, b] : rows()) {
    EXPECT_FALSE(b.value("error_occurred", false)) << name.str() << ": " << b.dump();
    EXPECT_EQ(b.value("max_rel_err", -1.0), 0.0) << name.str();
    if (name.api == "opencl") {
      ++opencl_rows;
      EXPECT_NE(b.value("label", "").find("-DAFFINE16"), std::string::npos)
          << name.str() << ": " << b.value("label", "");
    }
  }
  // reduce: 3 algorithms and pipeline-regcap40 x 2 sizes; scan: alpha and
  // lookback x 2 sizes x 3 alphas, onepass and onepass-regcap64 x 2 sizes x 2
  // alphas (8, 32).
  EXPECT_EQ(opencl_rows, 4 * 2 + 2 * 2 * 3 + 2 * 2 * 2);
}

TEST(AgpuOrder, OnepassIsSkippedWhereItsAlphaIsNotCompiled) {
  const std::string skipped = order_run().report["context"].value("gpucmp.skipped_benchmarks", "");
  for (const char* n : {"65536", "1000192"})
    EXPECT_NE(skipped.find(std::string("scan/opencl/onepass/type:affine16/n:") + n + "/alpha:1"),
              std::string::npos)
        << skipped;
  int onepass_rows = 0;
  for (const auto& [name, b] : rows())
    if (name.workload == "scan" && name.variant == "onepass") {
      ++onepass_rows;
      for (const Param& param : name.params) {
        if (param.name == "alpha") {
          EXPECT_NE(param.value, "1") << name.str();
        }
      }
    }
  EXPECT_EQ(onepass_rows, cuda_device_present() ? 8 : 4);
}

TEST(AgpuOrder, OnlyCascadingReordersTheReduction) {
  int checked = 0;
  for (const auto& [name, b] : rows()) {
    if (name.workload != "reduce") continue;
    ASSERT_TRUE(b.contains("keeps_order")) << name.str();
    const bool reordered =
        name.variant == "cascading" && name.str().find("/n:4194304") != std::string::npos;
    if (name.variant != "cascading" || reordered) {
      EXPECT_EQ(b["keeps_order"].get<double>(), reordered ? 0.0 : 1.0) << name.str();
    }
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

TEST(AgpuOrder, CubReduceIsSkippedForANonCommutativeOperator) {
  if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device";
  const std::string skipped = order_run().report["context"].value("gpucmp.skipped_benchmarks", "");
  EXPECT_NE(skipped.find("reduce/cuda/cub/type:affine16"), std::string::npos) << skipped;
}

}  // namespace
}  // namespace gpucmp::test
