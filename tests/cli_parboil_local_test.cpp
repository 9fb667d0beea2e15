// The Parboil kernels' local size as a parameter: --cp-local,
// --mriq-local and --mrifhd-local add rows .../local:<shape> and change no
// other row; a non-default size runs validated on the default OpenCL device
// (PoCL without a GPU) for each of the three workloads at quick size.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "bench_process.h"
#include "naming.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

// The cp/mriq/mrifhd timed and startup names a listing holds, without Google
// Benchmark's suffixes.
std::set<std::string> parboil_names(const std::string& args) {
  const ProcessResult r = run_bench("--size quick --benchmark_list_tests " + args);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::set<std::string> names;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    const auto name = parse_bench_name(line);
    if (!name) continue;
    const std::string w = name->workload == "startup" ? name->variant : name->workload;
    if (w.rfind("cp", 0) == 0 || w.rfind("mri", 0) == 0) names.insert(name->str());
  }
  return names;
}

bool has_local(const std::string& name) { return name.find("/local:") != std::string::npos; }

// Not given, nothing changes; given, the same rows plus local ones (no
// startup rows of their own).
TEST(ParboilLocalRun, OptionsOnlyAddRows) {
  const std::set<std::string> plain = parboil_names("");
  ASSERT_FALSE(plain.empty());
  for (const std::string& name : plain) EXPECT_FALSE(has_local(name)) << name;
  for (const char* kept :
       {"cp/opencl/unrollx8/grid:128/atoms:2000", "mriq/opencl/precise/numK:512/numX:4096",
        "startup/opencl/mrifhd-precise/numK:512/numX:4096"})
    EXPECT_EQ(plain.count(kept), 1u) << kept;

  const std::set<std::string> with =
      parboil_names("--cp-local 2x16 --mriq-local 96 --mrifhd-local 1000");
  std::set<std::string> without_local;
  int local_rows = 0;
  for (const std::string& name : with) {
    if (!has_local(name)) {
      without_local.insert(name);
      continue;
    }
    ++local_rows;
    EXPECT_NE(name.rfind("startup/", 0), 0u) << name;
  }
  EXPECT_EQ(without_local, plain);
  // Cross-run rows get local rows too, where this build has a CUDA side (the
  // sanitizer pass builds OpenCL only).
  if (plain.count("cp/cuda/unrollx8-ptx-jit/grid:128/atoms:2000") != 0) {
    EXPECT_EQ(with.count("cp/cuda/unrollx8-ptx-jit/grid:128/atoms:2000/local:2x16"), 1u);
  }
  EXPECT_EQ(with.count("mrifhd/opencl/uniform-tile/numK:512/numX:4096/local:1000"), 1u);
  EXPECT_GT(local_rows, 0);
}

// sweep: every shape that tiles each kernel's grid, unrollx8's X at most
// 128 / 8 = 16.
TEST(ParboilLocalRun, SweepFollowsEachKernelsRule) {
  int base = 0, unrollx8 = 0;
  for (const std::string& name : parboil_names("--cp-local sweep")) {
    const auto parsed = parse_bench_name(name);
    if (!parsed || parsed->api != "opencl" || !has_local(name)) continue;
    const std::string shape = parsed->params.back().value;
    const int x = std::stoi(shape.substr(0, shape.find('x')));
    if (parsed->variant == "base") ++base;
    if (parsed->variant == "unrollx8") {
      ++unrollx8;
      EXPECT_LE(x, 16) << name;
    }
  }
  EXPECT_EQ(base, 54);  // divisor pairs of 128 x 128 within 1024 work-items
  EXPECT_EQ(unrollx8, 39);
}

// One run: the default and the local rows of one variant per workload.
// 2x16 (cp unrollx8: 8 points per thread, 2 apart), 96 (does not divide
// numX = 4096: a partial last group) and 1000.
TEST(ParboilLocalRun, NonDefaultSizesRunValidatedOnOpenCl) {
  const std::string out = temp_dir("parboil-local") + "/out.json";
  const ProcessResult r = run_bench(
      "--size quick --samples 1 --startup off --progress off "
      "--cp-local 2x16 --mriq-local 96 --mrifhd-local 1000 "
      "'--benchmark_filter=^(cp/opencl/unrollx8|mriq/opencl/precise|mrifhd/opencl/precise)/' "
      "--benchmark_out=" +
      out + " --benchmark_out_format=json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  const json report = json::parse(in, nullptr, false);
  ASSERT_TRUE(report.is_object() && report.contains("benchmarks")) << r.output;
  std::map<std::string, json> rows;
  for (const auto& b : report["benchmarks"])
    if (const auto name = parse_bench_name(b["name"].get<std::string>())) rows[name->str()] = b;
  const std::map<std::string, std::pair<int, int>> want = {
      {"cp/opencl/unrollx8/grid:128/atoms:2000/local:2x16", {2, 16}},
      {"mriq/opencl/precise/numK:512/numX:4096/local:96", {96, 1}},
      {"mrifhd/opencl/precise/numK:512/numX:4096/local:1000", {1000, 1}}};
  for (const auto& [name, shape] : want) {
    ASSERT_EQ(rows.count(name), 1u) << name << " missing\n" << r.output;
    const json& b = rows.at(name);
    EXPECT_FALSE(b.value("error_occurred", false)) << name << ": " << b.value("error_message", "");
    ASSERT_TRUE(b.contains("max_rel_err")) << name;
    EXPECT_GE(b["max_rel_err"].get<double>(), 0.0) << name;
    EXPECT_EQ(b.value("local_x", -1.0), shape.first) << name;
    EXPECT_EQ(b.value("local_y", -1.0), shape.second) << name;
  }
  // The default rows ran too, under their names and without local counters.
  for (const char* name :
       {"cp/opencl/unrollx8/grid:128/atoms:2000", "mriq/opencl/precise/numK:512/numX:4096"}) {
    ASSERT_EQ(rows.count(name), 1u) << name;
    EXPECT_FALSE(rows.at(name).contains("local_x")) << name;
  }
}

}  // namespace
}  // namespace gpucmp::test
