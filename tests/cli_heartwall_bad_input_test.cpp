// HeartWall's options with bad values: one line naming the option, exit 2,
// before anything runs.
#include <gtest/gtest.h>

#include "bad_input_checks.h"

namespace gpucmp::test {
namespace {

TEST(HeartWallBadInput, FramesOutsideTheSequence) {
  expect_quick_usage_error("--heartwall-frames 1 --benchmark_filter=^heartwall/",
                           "--heartwall-frames 1");
  expect_quick_usage_error("--heartwall-frames 20,105 --benchmark_filter=^heartwall/",
                           "--heartwall-frames 105");
}

TEST(HeartWallBadInput, FramesNotANumber) {
  expect_quick_usage_error("--heartwall-frames 2x --benchmark_filter=^heartwall/",
                           "--heartwall-frames 2x");
}

TEST(HeartWallBadInput, AosoaIsNotOffered) {
  expect_quick_usage_error("--heartwall-layout aos,aosoa --benchmark_filter=^heartwall/",
                           "--heartwall-layout aosoa: not offered (aos, soa): AoSoA's tiles of "
                           "32 records do not divide HeartWall's 51 points");
}

TEST(HeartWallBadInput, UnknownLayout) {
  expect_quick_usage_error("--heartwall-layout soa,aosa --benchmark_filter=^heartwall/",
                           "--heartwall-layout aosa: not a layout (aos, soa, aosoa)");
}

TEST(HeartWallBadInput, RodiniaFilesFolderMissingOrAFile) {
  expect_quick_usage_error("--heartwall-write-rodinia /nonexistent/hw",
                           "--heartwall-write-rodinia /nonexistent/hw: no such");
  expect_quick_usage_error("--heartwall-write-rodinia /proc/version",
                           "--heartwall-write-rodinia /proc/version: not a directory");
}

}  // namespace
}  // namespace gpucmp::test
