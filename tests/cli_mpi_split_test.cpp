// Split rows over MPI ranks on OpenCL, as CI runs them: 2
// ranks on the default device (PoCL without a GPU) against 1 rank, under
// mpirun. Every row of both runs is validated by gpucmp-bench itself (a lost
// scatter leaves NaN inputs on a rank, a lost gather a poisoned output on
// rank 0: either fails validation, exit 1); here the 2-rank rows' outputs
// must equal the 1-rank rows' bit for bit (output_digest), and the
// in-process split's too. Bad input under mpirun: exit 2 and the line.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "bench_process.h"
#include "mpi_process.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

const std::string kRows =
    " --benchmark_filter='^(mmnaive|bilinear|trapezoid)/opencl/.*/split' --size quick "
    "--split equal,share:0.3,calibrated --split-launches 2 --samples 1";

struct MpiRun {
  ProcessResult process;
  std::map<std::string, json> rows;  // by name, devices:N and over:mpi taken out
};

// A row's name without Google Benchmark's suffix, devices:N and over:mpi.
std::string key_of(const json& row) {
  std::string name = row.value("name", "");
  name = name.substr(0, name.find("/iterations:"));
  const auto devices = name.find("/devices:");
  if (devices != std::string::npos) name.erase(devices, name.find('/', devices + 1) - devices);
  const auto over = name.find("/over:mpi");
  if (over != std::string::npos) name.erase(over);
  return name;
}

MpiRun run(const std::string& command, const std::string& args) {
  const std::string out = temp_dir("mpi-split") + "/out.json";
  MpiRun r{run_command(command + kRows + " --benchmark_out=" + out + " " + args), {}};
  std::ifstream in(out);
  if (!in) return r;
  const json report = json::parse(in, nullptr, false);
  if (report.is_object())
    for (const json& row : report.value("benchmarks", json::array())) r.rows[key_of(row)] = row;
  return r;
}

// The same rows, the same outputs bit for bit, every row of `other` marked
// with its device count.
void expect_same_outputs(const MpiRun& one, const MpiRun& other, const std::string& devices) {
  ASSERT_EQ(one.process.exit_code, 0) << one.process.output;
  ASSERT_EQ(other.process.exit_code, 0) << other.process.output;
  ASSERT_EQ(one.rows.size(), 9u) << one.process.output;  // 3 kernels x 3 splits
  ASSERT_EQ(other.rows.size(), one.rows.size()) << other.process.output;
  for (const auto& [key, row] : other.rows) {
    SCOPED_TRACE(key);
    ASSERT_TRUE(one.rows.count(key));
    EXPECT_NE(row.value("name", "").find("/devices:" + devices + "/"), std::string::npos);
    EXPECT_EQ(row.value("output_digest", -1.0), one.rows.at(key).value("output_digest", -2.0));
    EXPECT_EQ(row.value("max_rel_err", -1.0), one.rows.at(key).value("max_rel_err", -2.0));
  }
}

TEST(MpiSplit, TwoRanksGatherWhatOneRankComputesAlongY) {
  GPUCMP_SKIP_WITHOUT_MPI();
  const MpiRun one = run(mpirun(1), "--split-over mpi");
  const MpiRun two = run(mpirun(2), "--split-over mpi");
  expect_same_outputs(one, two, "2");
  for (const auto& [key, row] : two.rows) {
    SCOPED_TRACE(key);
    EXPECT_NE(row.value("name", "").find("/over:mpi/"), std::string::npos);
    EXPECT_EQ(row.value("devices", 0.0), 2.0);
    if (key.find("split:share:0.3") != std::string::npos) {
      EXPECT_GT(row.value("share_0", 0.0), 0.2);
      EXPECT_LT(row.value("share_0", 1.0), 0.4);
    }
  }
  // The in-process split of the same device named twice: the same outputs.
  const MpiRun threads = run(std::string(GPUCMP_BENCH_PATH), "--cl-split-devices 0:0,0:0");
  expect_same_outputs(one, threads, "2");
}

TEST(MpiSplit, TwoRanksGatherWhatOneRankComputesAlongX) {
  GPUCMP_SKIP_WITHOUT_MPI();
  expect_same_outputs(run(mpirun(1), "--split-over mpi --split-axis x"),
                      run(mpirun(2), "--split-over mpi --split-axis x"), "2");
}

// ---- bad input: exit 2 and rank 0's line naming the problem ----

void expect_error(const ProcessResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("gpucmp-bench: error: " + needle), std::string::npos) << r.output;
}

TEST(MpiSplitBadInput, OneDeviceListedForTwoRanks) {
  GPUCMP_SKIP_WITHOUT_MPI();
  expect_error(run_command(mpirun(2) + kRows + " --split-over mpi --cl-split-devices 0:0"),
               "--cl-split-devices names 1 device for 2 MPI ranks");
}

// Only rank 1 fails to choose its device: every rank stops (no hang), rank 0
// says which rank failed and why.
TEST(MpiSplitBadInput, OneRanksDeviceMissing) {
  GPUCMP_SKIP_WITHOUT_MPI();
  expect_error(run_command(mpirun(2) + kRows + " --split-over mpi --cl-split-devices 0:0,0:9"),
               "rank 1: --cl-split-devices 0:9: no such device on platform 0");
}

TEST(MpiSplitBadInput, TwoRanksWithoutSplitOverMpi) {
  GPUCMP_SKIP_WITHOUT_MPI();
  expect_error(run_command(mpirun(2) + kRows),
               "started as one of 2 MPI ranks without --split-over mpi");
}

TEST(MpiSplitBadInput, SplitOverMpiWithoutSplit) {
  expect_error(run_bench("--split-over mpi --size quick"), "--split-over mpi: only with --split");
}

TEST(MpiSplitBadInput, SplitOverNeitherThreadsNorMpi) {
  expect_error(run_bench("--split equal --split-over tcp --size quick"),
               "--split-over tcp: must be threads or mpi");
}

}  // namespace
}  // namespace gpucmp::test
