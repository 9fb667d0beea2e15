// The advection variants that compute the step as weights (weights, stream,
// async, ring, ring-vec4: harness/workloads/advection/advection.h) sum the same terms in the
// same order, async skipping each row's zero weight: their fields must be
// equal bit for bit (output_digest after the 3 steps of --cache cold
// --samples 1), on the default OpenCL device (PoCL without a GPU), on a grid
// of whole async tiles and on one whose last tile is a part (320 = 256 + 64
// columns).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_process.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

TEST(AdvectionSameField, WeightsStreamAndAsyncAreEqualBitForBit) {
  const std::string out = temp_dir("advection-same-field") + "/out.json";
  const ProcessResult p =
      run_command(std::string(GPUCMP_BENCH_PATH) +
                  " --benchmark_filter='^advection/opencl/"
                  "(weights|stream|async|ring|ring-vec4)/' --cache cold --samples 1"
                  " --advection-grid 256x256,320x192 --benchmark_out=" +
                  out);
  ASSERT_EQ(p.exit_code, 0) << p.output;
  std::ifstream in(out);
  const json report = json::parse(in, nullptr, false);
  ASSERT_TRUE(report.is_object()) << p.output;
  std::map<std::string, std::map<std::string, double>> digest;  // grid -> variant -> digest
  for (const json& row : report.value("benchmarks", json::array())) {
    const std::string name = row.value("name", "");
    ASSERT_FALSE(row.value("error_occurred", false))
        << name << ": " << row.value("error_message", "");
    const auto variant_at = name.find('/', name.find('/') + 1) + 1;
    const std::string variant = name.substr(variant_at, name.find('/', variant_at) - variant_at);
    const std::string grid =
        name.substr(name.find("/nx:"), name.find("/iterations:") - name.find("/nx:"));
    digest[grid][variant] = row.value("output_digest", -1.0);
  }
  ASSERT_EQ(digest.size(), 2u) << p.output;
  for (const auto& [grid, by_variant] : digest) {
    SCOPED_TRACE(grid);
    ASSERT_EQ(by_variant.size(), 5u);
    EXPECT_EQ(by_variant.at("stream"), by_variant.at("weights"));
    EXPECT_EQ(by_variant.at("async"), by_variant.at("weights"));
    EXPECT_EQ(by_variant.at("ring"), by_variant.at("weights"));
    EXPECT_EQ(by_variant.at("ring-vec4"), by_variant.at("weights"));
  }
}

}  // namespace
}  // namespace gpucmp::test
