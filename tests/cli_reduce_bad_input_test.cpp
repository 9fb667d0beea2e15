// Bad reduce options (issue 17): a one-line error naming the option and what
// was wrong, exit code 2, before anything runs.
#include <gtest/gtest.h>

#include "bad_input_checks.h"

namespace gpucmp::test {
namespace {

TEST(ReduceBadInput, UnknownType) {
  expect_quick_usage_error("--reduce-type float,double --benchmark_filter=^reduce/",
                           "--reduce-type double: not a type (int32, float)");
}

TEST(ReduceBadInput, SizeNotAMultipleOf256) {
  expect_quick_usage_error("--reduce-n 1000 --benchmark_filter=^reduce/", "--reduce-n 1000");
}

TEST(ReduceBadInput, SizeTooLarge) {
  expect_quick_usage_error("--reduce-n 2147483648 --benchmark_filter=^reduce/",
                           "--reduce-n 2147483648");
}

}  // namespace
}  // namespace gpucmp::test
