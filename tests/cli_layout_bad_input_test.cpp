// Bad layouts for the data-layout study (issue 16): a clear one-line error
// naming the layout or the tile rule, exit code 2, before anything runs.
#include <gtest/gtest.h>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

TEST(LayoutBadInput, UnknownLayout) {
  expect_quick_usage_error("--lavamd-layout aos,aosa --benchmark_filter=^lavamd/",
                           "--lavamd-layout aosa: not a layout (aos, soa, aosoa)");
}

TEST(LayoutBadInput, TileNotDividingTheParticles) {
  expect_quick_usage_error(
      "--lavamd-boxes 5 --benchmark_filter=^lavamd/",
      "--lavamd-boxes 5 with layout aosoa: the AoSoA tile of 32 records does not divide the "
      "12500 records");
}

TEST(LayoutBadInput, BoxesOutOfRange) {
  expect_quick_usage_error("--lavamd-boxes 0 --benchmark_filter=^lavamd/", "--lavamd-boxes 0");
}

}  // namespace
}  // namespace gpucmp::test
