// Bad reduce and scan options: a one-line error naming the option and what
// was wrong, exit code 2, before anything runs.
#include <gtest/gtest.h>

#include "bad_input_checks.h"

namespace gpucmp::test {
namespace {

TEST(ReduceBadInput, UnknownType) {
  expect_quick_usage_error("--reduce-type float,double --benchmark_filter=^reduce/",
                           "--reduce-type double: not a type (int32, float, affine16)");
}

TEST(ReduceBadInput, SizeTooLarge) {
  expect_quick_usage_error("--reduce-n 2147483648 --benchmark_filter=^reduce/",
                           "--reduce-n 2147483648");
}

TEST(ScanBadInput, AlphaOutOfRange) {
  expect_quick_usage_error("--scan-alpha 8,33 --benchmark_filter=^scan/", "--scan-alpha 33");
  expect_quick_usage_error("--scan-alpha 0 --benchmark_filter=^scan/", "--scan-alpha 0");
}

TEST(ScanBadInput, UnknownPoll) {
  expect_quick_usage_error("--scan-poll wait,sleep --benchmark_filter=^scan/",
                           "--scan-poll sleep: not a poll (wait, spin)");
}

TEST(ScanBadInput, UnknownLoadOrder) {
  expect_quick_usage_error("--scan-load each,sideways --benchmark_filter=^scan/",
                           "--scan-load sideways: not a load order (each, batched)");
}

TEST(ScanBadInput, UnknownType) {
  expect_quick_usage_error("--scan-type int64 --benchmark_filter=^scan/",
                           "--scan-type int64: not a type (int32, float, affine16)");
}

}  // namespace
}  // namespace gpucmp::test
