// scan's --scan-poll: `spin` adds onepass rows named .../poll:spin
// beside the default (sleeping) ones and no row of another variant; not
// given, no row spins; a spinning onepass row runs validated on the default
// OpenCL device (PoCL without a GPU). Likewise --scan-load: `batched` adds
// alpha rows named .../load:batched, validated at the compiled alphas and
// skipped, by name, at the others.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "bench_process.h"
#include "naming.h"

namespace gpucmp::test {
namespace {

constexpr const char* kRows =
    "--benchmark_filter=^scan/ --scan-n 1024 --scan-alpha 8 --scan-type int32";

std::set<std::string> scan_names(const std::string& args) {
  const ProcessResult r = run_bench("--size quick --benchmark_list_tests " + args);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::set<std::string> names;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);)
    if (const auto name = parse_bench_name(line); name && name->workload == "scan")
      names.insert(name->str());
  return names;
}

// The rows that `both` (e.g. "--scan-poll wait,spin") adds to kRows' plain
// ones: each a row of `variant` named .../<param>, one for each API that lists
// the variant's plain row (a build without CUDA lists OpenCL's only), the
// other rows unchanged; with `only` (e.g. "--scan-poll spin") the variant's
// plain row is gone and its .../<param> row stays.
void expect_added_rows(const std::string& both, const std::string& only, const std::string& variant,
                       const std::string& param) {
  const std::set<std::string> plain = scan_names(kRows);
  ASSERT_FALSE(plain.empty());
  const auto marked = [&](const std::string& name) {
    return name.find("/" + param) != std::string::npos;
  };
  for (const std::string& name : plain) EXPECT_FALSE(marked(name)) << name;

  const std::set<std::string> with = scan_names(std::string(kRows) + " " + both);
  std::map<std::string, int> added_per_api;
  for (const std::string& name : with) {
    if (!marked(name)) {
      EXPECT_EQ(plain.count(name), 1u) << name;  // the other rows unchanged
      continue;
    }
    EXPECT_NE(name.find("/" + variant + "/"), std::string::npos) << name;
    ++added_per_api[name.substr(0, name.find('/', 5))];
  }
  std::size_t added = 0;
  for (const char* api : {"scan/cuda", "scan/opencl"}) {
    const bool listed =
        plain.count(std::string(api) + "/" + variant + "/type:int32/n:1024/alpha:8");
    EXPECT_EQ(added_per_api[api], listed ? 1 : 0) << api;
    added += std::size_t(added_per_api[api]);
  }
  EXPECT_EQ(with.size(), plain.size() + added);
  const std::string opencl_row = "scan/opencl/" + variant + "/type:int32/n:1024/alpha:8";
  EXPECT_EQ(with.count(opencl_row + "/" + param), 1u);

  const std::set<std::string> alone = scan_names(std::string(kRows) + " " + only);
  EXPECT_EQ(alone.count(opencl_row), 0u);
  EXPECT_EQ(alone.count(opencl_row + "/" + param), 1u);
}

TEST(ScanPoll, SpinAddsOnepassRowsOnly) {
  expect_added_rows("--scan-poll wait,spin", "--scan-poll spin", "onepass", "poll:spin");
}

TEST(ScanLoad, BatchedAddsAlphaRowsOnly) {
  expect_added_rows("--scan-load each,batched", "--scan-load batched", "alpha", "load:batched");
}

TEST(ScanPoll, SpinningRowValidatesOnOpenCL) {
  const ProcessResult r = run_bench(
      "--size quick --startup off --benchmark_filter=^scan/opencl/onepass/ --scan-n 4352 "
      "--scan-alpha 4 --scan-type int32 --scan-poll spin");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("scan/opencl/onepass/type:int32/n:4352/alpha:4/poll:spin"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("ERROR"), std::string::npos) << r.output;
}

// A tail tile (n not a multiple of the tile) and a non-commutative operator:
// the batched rows keep every word and its order; alpha 4 has no batched build.
TEST(ScanLoad, BatchedRowsValidateOnOpenCLAndSkipUncompiledAlphas) {
  const ProcessResult r = run_bench(
      "--size quick --startup off --benchmark_filter=^scan/opencl/alpha/ --scan-n 5000 "
      "--scan-alpha 4,16 --scan-type int32,affine16 --scan-load batched");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* type : {"int32", "affine16"}) {
    const std::string row = std::string("scan/opencl/alpha/type:") + type + "/n:5000/alpha:";
    // The row's label names the build it timed: the alpha-16 program with batched loads.
    const std::size_t timed = r.output.find(row + "16/load:batched/iterations:1/manual_time ");
    ASSERT_NE(timed, std::string::npos) << r.output;
    const std::string label = r.output.substr(timed, r.output.find('\n', timed) - timed);
    EXPECT_NE(label.find("-DALPHA=16 -DBATCHED_LOADS"), std::string::npos) << label;
    const std::size_t skipped = r.output.find(row + "4/load:batched/iterations:1/manual_time ");
    ASSERT_NE(skipped, std::string::npos) << r.output;
    const std::string line = r.output.substr(skipped, r.output.find('\n', skipped) - skipped);
    EXPECT_NE(line.find("skipped: batched loads are compiled for alpha 8, 16 and 32 only, not 4"),
              std::string::npos)
        << line;
  }
  EXPECT_EQ(r.output.find("ERROR"), std::string::npos) << r.output;
}

// The macros the scan cross-runs pass through --cl-build-options compile and
// keep the results exact: lookback's walk unrolled, onepass without its
// required work-group size.
TEST(ScanCrossRun, BuildOptionMacrosCompileAndValidate) {
  const ProcessResult r = run_bench(
      "--size quick --startup off '--benchmark_filter=^scan/opencl/(lookback|onepass)/' "
      "--scan-n 5000 --scan-alpha 8 --scan-type int32,affine16 "
      "'--cl-build-options=-DUNROLL_LOOKBACK_WINDOW -DANY_GROUP_SIZE'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* row : {"scan/opencl/lookback/type:affine16/n:5000/alpha:8/",
                          "scan/opencl/onepass/type:int32/n:5000/alpha:8/"})
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
  EXPECT_EQ(r.output.find("ERROR"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("FAILED"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gpucmp::test
