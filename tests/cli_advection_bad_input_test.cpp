// Bad advection options: a grid that breaks the challenge's rules
// is a one-line error naming the rule, exit code 2, before anything runs.
#include <gtest/gtest.h>

#include "bad_input_checks.h"

namespace gpucmp::test {
namespace {

TEST(AdvectionBadInput, GridNotAMultipleOf64) {
  expect_quick_usage_error(
      "--advection-grid 4096x4000 --benchmark_filter=^advection/",
      "--advection-grid 4096x4000: nx and ny must be positive multiples of 64");
}

TEST(AdvectionBadInput, SideAbove32768) {
  expect_quick_usage_error("--advection-grid 65536x64 --benchmark_filter=^advection/",
                           "--advection-grid 65536x64: nx and ny must be at most 32768");
}

TEST(AdvectionBadInput, MoreThan2To27Cells) {
  expect_quick_usage_error("--advection-grid 16384x16384 --benchmark_filter=^advection/",
                           "--advection-grid 16384x16384: nx x ny must be at most 2^27 cells");
}

TEST(AdvectionBadInput, NotAGrid) {
  expect_quick_usage_error("--advection-grid 4096 --benchmark_filter=^advection/",
                           "--advection-grid 4096: not a grid NXxNY");
  expect_quick_usage_error("--advection-grid 4096xabc --benchmark_filter=^advection/",
                           "--advection-grid 4096xabc: not a grid NXxNY of multiples of 64");
}

// The rule is named, not a parse of the wrong part.
TEST(AdvectionBadInput, ThreeSidesOrASign) {
  for (const char* grid : {"64x64x64", "-64x64", "64x-64", "x64", "64x", "+64x64"})
    expect_quick_usage_error(
        std::string("--advection-grid ") + grid + " --benchmark_filter=^advection/",
        std::string("--advection-grid ") + grid +
            ": not a grid NXxNY of multiples of 64, each at most 32768");
}

// Options of the rows over several GPUs alone have no effect on one GPU: refused.
TEST(AdvectionBadInput, TwoGpuOptionsWithOneGpu) {
  expect_quick_usage_error("--advection-exchange overlap --benchmark_filter=^advection/",
                           "--advection-exchange: no effect without the rows over "
                           "several GPUs (--advection-gpus G, G > 1)");
  expect_quick_usage_error(
      "--advection-gpus 1 --advection-graph off --benchmark_filter=^advection/",
      "--advection-graph: no effect without the rows over several GPUs (--advection-gpus G, G "
      "> 1)");
  expect_quick_usage_error("--advection-over host --benchmark_filter=^advection/",
                           "--advection-over: no effect without the rows over "
                           "several GPUs (--advection-gpus G, G > 1)");
}

// A transport is named, and runs where the run can carry it.
TEST(AdvectionBadInput, TransportUnknownOrOutOfPlace) {
  expect_quick_usage_error(
      "--advection-gpus 2 --advection-over nvlink --benchmark_filter=^advection/",
      "--advection-over nvlink: not a transport (mpi, host, p2p, p2p-copy, context)");
  expect_quick_usage_error(
      "--advection-gpus 2 --advection-over host --advection-graph off "
      "--benchmark_filter=^advection/",
      "--advection-graph: no effect without the rows over NCCL (over:mpi)");
}

TEST(AdvectionBadInput, HaloStepsOutOfRangeOrAlone) {
  expect_quick_usage_error(
      "--advection-gpus 2 --advection-halo-steps 0 "
      "--benchmark_filter=^advection/",
      "--advection-halo-steps 0: must be in 1..16");
  expect_quick_usage_error(
      "--advection-gpus 2 --advection-halo-steps 4x "
      "--benchmark_filter=^advection/",
      "--advection-halo-steps 4x");
  expect_quick_usage_error("--advection-halo-steps 4 --benchmark_filter=^advection/",
                           "--advection-halo-steps: no effect without the rows over several GPUs");
}

TEST(AdvectionBadInput, GpusOutOfRange) {
  expect_quick_usage_error("--advection-gpus 0 --benchmark_filter=^advection/",
                           "--advection-gpus 0: must be in 1..16");
  expect_quick_usage_error("--advection-gpus 17 --benchmark_filter=^advection/",
                           "--advection-gpus 17: must be in 1..16");
}

TEST(AdvectionBadInput, UnknownExchange) {
  expect_quick_usage_error("--advection-exchange async --benchmark_filter=^advection/",
                           "--advection-exchange async: not an exchange (sync, overlap)");
}

TEST(AdvectionBadInput, GraphNeitherOnNorOff) {
  expect_quick_usage_error("--advection-graph maybe --benchmark_filter=^advection/",
                           "--advection-graph: maybe not in {on,off}");
}

TEST(AdvectionBadInput, NoSuchProblem) {
  expect_quick_usage_error("--advection-problems 6 --benchmark_filter=^advection/",
                           "--advection-problems 6: must be in 1..5");
}

}  // namespace
}  // namespace gpucmp::test
