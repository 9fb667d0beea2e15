// Advection split over two and four parts on OpenCL, as CI runs it, both
// ways: MPI ranks on the default device (PoCL without a GPU), and threads of
// one process on the default device named once per part (--cl-split-devices
// 0:0,0:0), each part computing its band of the rows and trading 2 halo rows
// each way with each neighbour every step (through MPI; through the
// in-process hub). Every row
// is validated by gpucmp-bench itself (a lost halo breaks the bounds and
// moves the peak); here every two-GPU row's field must equal the one-GPU
// field of the same variant bit for bit (output_digest), from the same run
// and from a run without mpirun. --cache cold --samples 1 fixes the steps
// each row runs (3).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_process.h"
#include "mpi_process.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

const std::string kRows =
    " --benchmark_filter='^advection/opencl/' --size quick --cache cold --samples 1";

struct HaloRun {
  ProcessResult process;
  std::map<std::string, json> rows;  // by name, without Google Benchmark's suffix
};

HaloRun run(const std::string& command, const std::string& args) {
  const std::string out = temp_dir("mpi-halo") + "/out.json";
  HaloRun r{run_command(command + kRows + " --benchmark_out=" + out + " " + args), {}};
  std::ifstream in(out);
  if (!in) return r;
  const json report = json::parse(in, nullptr, false);
  if (!report.is_object()) return r;
  for (const json& row : report.value("benchmarks", json::array())) {
    std::string name = row.value("name", "");
    r.rows[name.substr(0, name.find("/iterations:"))] = row;
  }
  return r;
}

// The one-GPU row of a split row's variant and grid.
std::string one_gpu_name(std::string name) {
  name.erase(name.find("/gpus:"), name.find("/cache:") - name.find("/gpus:"));
  return name;
}

// Every gpus:`gpus` row of `r` ran without error, over `over`, and left the
// field of its variant's one-GPU row bit for bit; returns how many there are.
int expect_split_rows_equal_one_gpu(const HaloRun& r, const HaloRun& alone, int gpus,
                                    const std::string& over) {
  const std::string tag = "/gpus:" + std::to_string(gpus) + "/";
  int split = 0;
  for (const auto& [name, row] : r.rows) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(row.contains("error_occurred") && row["error_occurred"].get<bool>());
    if (name.find(tag) == std::string::npos) continue;
    ++split;
    EXPECT_NE(name.find("/over:" + over), std::string::npos);
    EXPECT_EQ(row.value("gpus", 0.0), double(gpus));
    const auto one = alone.rows.find(one_gpu_name(name));
    if (one == alone.rows.end()) {
      ADD_FAILURE() << "no one-GPU row";
      continue;
    }
    EXPECT_EQ(row.value("output_digest", -1.0), one->second.value("output_digest", -2.0));
  }
  return split;
}

TEST(MpiHalo, TwoRanksEqualOneGpuBitForBit) {
  GPUCMP_SKIP_WITHOUT_MPI();
  const HaloRun alone = run(std::string(GPUCMP_BENCH_PATH), "");
  const HaloRun two = run(mpirun(2), "--split-over mpi --advection-gpus 1,2");
  ASSERT_EQ(alone.process.exit_code, 0) << alone.process.output;
  ASSERT_EQ(two.process.exit_code, 0) << two.process.output;
  const std::size_t variants = alone.rows.size();
  ASSERT_GE(variants, 6u) << alone.process.output;                 // blocked .. async
  ASSERT_EQ(two.rows.size(), 3 * variants) << two.process.output;  // and 2 exchanges of each
  int split = 0;
  for (const auto& [name, row] : two.rows) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(row.contains("error_occurred") && row["error_occurred"].get<bool>());
    EXPECT_EQ(row.value("output_digest", -1.0),
              alone.rows.at(name.find("/gpus:2") == std::string::npos ? name : one_gpu_name(name))
                  .value("output_digest", -2.0));
    if (name.find("/gpus:2/") == std::string::npos) continue;
    ++split;
    EXPECT_NE(name.find("/over:mpi"), std::string::npos);
    EXPECT_EQ(row.value("gpus", 0.0), 2.0);
  }
  EXPECT_EQ(split, int(2 * variants));
}

// The rows `filter` names, run without mpirun and under `ranks` MPI ranks
// with `split` (each run must exit 0); the ranks' run.
HaloRun ranks_beside_alone(const std::string& filter, int ranks, const std::string& split,
                           HaloRun& alone) {
  const std::string rows = " --benchmark_filter='" + filter + "'";
  alone = run(std::string(GPUCMP_BENCH_PATH), rows);
  HaloRun r = run(mpirun(ranks), rows + " --split-over mpi " + split);
  EXPECT_EQ(alone.process.exit_code, 0) << alone.process.output;
  EXPECT_EQ(r.process.exit_code, 0) << r.process.output;
  return r;
}

// Four ranks, a band of 64 rows each (the middle two trade both ways): the
// same field as one device, bit for bit. One variant and order keep it short.
TEST(MpiHalo, FourRanksEqualOneGpuBitForBit) {
  GPUCMP_SKIP_WITHOUT_MPI();
  HaloRun alone;
  const HaloRun four = ranks_beside_alone("^advection/opencl/stream/", 4,
                                          "--advection-gpus 4 --advection-exchange overlap", alone);
  EXPECT_EQ(expect_split_rows_equal_one_gpu(four, alone, 4, "mpi"), 1) << four.process.output;
}

// Exchanges every K steps, 2K rows each way, the rows next to the split
// recomputed in between: two ranks, the same field as one device.
TEST(MpiHalo, WideHalosEqualOneGpuBitForBit) {
  GPUCMP_SKIP_WITHOUT_MPI();
  HaloRun alone;
  const HaloRun two = ranks_beside_alone(
      "^advection/opencl/(stream|async)/", 2,
      "--advection-gpus 2 --advection-halo-steps 2,3 --advection-exchange overlap", alone);
  EXPECT_EQ(expect_split_rows_equal_one_gpu(two, alone, 2, "mpi"), 4) << two.process.output;
  for (const auto& [name, row] : two.rows)
    if (name.find("/gpus:2/") != std::string::npos) {
      EXPECT_NE(name.find("/halo_steps:"), std::string::npos) << name;
    }
}

// One rank: the two-GPU rows are skipped, saying why; the rest run.
TEST(MpiHalo, OneRankSkipsTheTwoGpuRows) {
  GPUCMP_SKIP_WITHOUT_MPI();
  const HaloRun one =
      run(mpirun(1), "--split-over mpi --advection-gpus 2 --advection-exchange sync");
  EXPECT_EQ(one.process.exit_code, 0) << one.process.output;
  EXPECT_NE(one.process.output.find("run one MPI rank per GPU"), std::string::npos)
      << one.process.output;
}

// In one process, a thread per part, the halos through host memory: the
// same fields as one device, bit for bit, in both orders.
TEST(ThreadHalo, TwoThreadsEqualOneGpuBitForBit) {
  const HaloRun two = run(std::string(GPUCMP_BENCH_PATH),
                          "--advection-gpus 1,2 --advection-over host --cl-split-devices 0:0,0:0");
  ASSERT_EQ(two.process.exit_code, 0) << two.process.output;
  int one = 0, split = 0;
  for (const auto& [name, row] : two.rows) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(row.contains("error_occurred") && row["error_occurred"].get<bool>());
    if (name.find("/gpus:2/") == std::string::npos) {
      ++one;
      continue;
    }
    ++split;
    EXPECT_NE(name.find("/over:host"), std::string::npos);
    EXPECT_EQ(row.value("gpus", 0.0), 2.0);
    EXPECT_EQ(row.value("output_digest", -1.0),
              two.rows.at(one_gpu_name(name)).value("output_digest", -2.0));
  }
  EXPECT_GE(one, 6) << two.process.output;  // blocked .. async
  EXPECT_EQ(split, 2 * one) << two.process.output;
}

// Four threads, one per band, the middle two trading both ways, in both
// orders: the same fields as one device, bit for bit.
TEST(ThreadHalo, FourThreadsEqualOneGpuBitForBit) {
  const HaloRun four =
      run(std::string(GPUCMP_BENCH_PATH),
          "--advection-gpus 1,4 --advection-over host --cl-split-devices 0:0,0:0,0:0,0:0");
  ASSERT_EQ(four.process.exit_code, 0) << four.process.output;
  const int one = int(four.rows.size()) - expect_split_rows_equal_one_gpu(four, four, 4, "host");
  EXPECT_GE(one, 6) << four.process.output;  // blocked .. async
  EXPECT_EQ(int(four.rows.size()), 3 * one) << four.process.output;
}

// Wide halos in one process, two and four parts, both orders: K = 1 (no
// halo_steps in the name), 2 and 3, each the one-GPU field bit for bit.
TEST(ThreadHalo, WideHalosEqualOneGpuBitForBit) {
  const HaloRun r = run(std::string(GPUCMP_BENCH_PATH),
                        "--benchmark_filter='^advection/opencl/(plain|stream|async)/' "
                        "--advection-gpus 1,2,4 --advection-over host --advection-halo-steps 1,2,3 "
                        "--cl-split-devices 0:0,0:0,0:0,0:0");
  ASSERT_EQ(r.process.exit_code, 0) << r.process.output;
  // 3 variants x 3 K x 2 exchanges, on 2 and on 4 GPUs.
  EXPECT_EQ(expect_split_rows_equal_one_gpu(r, r, 2, "host"), 18) << r.process.output;
  EXPECT_EQ(expect_split_rows_equal_one_gpu(r, r, 4, "host"), 18) << r.process.output;
  int wide = 0;
  for (const auto& [name, row] : r.rows) {
    if (name.find("/halo_steps:") == std::string::npos) continue;
    ++wide;
    EXPECT_GT(row.value("halo_steps", 0.0), 1.0) << name;
  }
  EXPECT_EQ(wide, 24);
}

// One context over the parts' devices (over:context), the edge rows copied
// between the parts' buffers, on 2 and 4 parts, halos every step and every
// 3, both orders: the one-GPU field bit for bit.
TEST(ThreadHalo, OneContextEqualsOneGpuBitForBit) {
  const HaloRun r =
      run(std::string(GPUCMP_BENCH_PATH),
          "--benchmark_filter='^advection/opencl/(plain|stream|async)/' "
          "--advection-gpus 1,2,4 --advection-over context --advection-halo-steps 1,3 "
          "--cl-split-devices 0:0,0:0,0:0,0:0");
  ASSERT_EQ(r.process.exit_code, 0) << r.process.output;
  // 3 variants x 2 K x 2 exchanges, on 2 and on 4 GPUs.
  EXPECT_EQ(expect_split_rows_equal_one_gpu(r, r, 2, "context"), 12) << r.process.output;
  EXPECT_EQ(expect_split_rows_equal_one_gpu(r, r, 4, "context"), 12) << r.process.output;
}

// More GPUs than the split group has: those rows are skipped, saying why.
TEST(ThreadHalo, MoreGpusThanTheGroupAreSkippedSayingWhy) {
  const HaloRun r = run(std::string(GPUCMP_BENCH_PATH),
                        "--advection-gpus 4 --advection-over host --advection-exchange sync "
                        "--cl-split-devices 0:0,0:0");
  EXPECT_EQ(r.process.exit_code, 0) << r.process.output;
  EXPECT_NE(r.process.output.find("the gpus:4 rows need 4 devices in opencl's split group"),
            std::string::npos)
      << r.process.output;
  for (const auto& [name, row] : r.rows) EXPECT_EQ(name.find("/gpus:4/"), std::string::npos);
}

// OpenCL has no peer access: its p2p and p2p-copy rows are skipped, saying why.
TEST(ThreadHalo, OpenClPeerRowsAreSkippedSayingWhy) {
  const HaloRun r =
      run(std::string(GPUCMP_BENCH_PATH),
          "--advection-gpus 2 --advection-over p2p,p2p-copy --advection-exchange sync "
          "--cl-split-devices 0:0,0:0");
  EXPECT_EQ(r.process.exit_code, 0) << r.process.output;
  EXPECT_NE(r.process.output.find("OpenCL has no peer access"), std::string::npos)
      << r.process.output;
  for (const auto& [name, row] : r.rows) EXPECT_EQ(name.find("/gpus:2/"), std::string::npos);
}

// Without mpirun and without a split group of two devices: the in-process
// rows are skipped, saying why; never run on one device as if split.
TEST(ThreadHalo, WithoutTwoDevicesSkipsTheTwoGpuRows) {
  const HaloRun alone = run(std::string(GPUCMP_BENCH_PATH), "--advection-gpus 2");
  EXPECT_EQ(alone.process.exit_code, 0) << alone.process.output;
  EXPECT_NE(alone.process.output.find("split rows need 2 or more devices"), std::string::npos)
      << alone.process.output;
  for (const auto& [name, row] : alone.rows) EXPECT_EQ(name.find("/gpus:2/"), std::string::npos);
}

// A transport that cannot run in this kind of run is a usage error, not a skip.
TEST(ThreadHalo, MpiTransportWithoutMpiSplitIsAUsageError) {
  const HaloRun r = run(std::string(GPUCMP_BENCH_PATH), "--advection-gpus 2 --advection-over mpi");
  EXPECT_EQ(r.process.exit_code, 2) << r.process.output;
  EXPECT_NE(r.process.output.find("--advection-over mpi: runs one MPI rank per GPU"),
            std::string::npos)
      << r.process.output;
}

}  // namespace
}  // namespace gpucmp::test
