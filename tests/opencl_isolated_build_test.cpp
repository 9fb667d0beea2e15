// The -cl-opt-disable builds made in a child process (opencl/isolated_build.h)
// and the child modes they run in (harness/child_mode.h). The builds run on
// the first OpenCL device (PoCL without a GPU; skipped where there is none):
// this test executable is the child, so its main() runs child modes first.
#include <gtest/gtest.h>

#include <unistd.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "child_mode.h"
#include "errors.h"
#include "opencl/isolated_build.h"
#include "opencl/session.h"

namespace gpucmp::opencl {
namespace {

int answer_seven(int, char**) { return 7; }

TEST(ChildMode, RunsTheModeItsFlagNamesAndNothingElse) {
  ASSERT_TRUE(register_child_mode("--gpucmp-child-test-seven", answer_seven));
  char exe[] = "exe", flag[] = "--gpucmp-child-test-seven", other[] = "--benchmark_filter=x";
  char* with_flag[] = {exe, flag, nullptr};
  char* without[] = {exe, other, nullptr};
  char* bare[] = {exe, nullptr};
  EXPECT_EQ(run_child_mode(2, with_flag), 7);
  EXPECT_EQ(run_child_mode(2, without), -1);
  EXPECT_EQ(run_child_mode(1, bare), -1);
  EXPECT_THROW(register_child_mode("--gpucmp-child-test-seven", answer_seven), std::logic_error);
  EXPECT_THROW(register_child_mode("--benchmark-seven", answer_seven), std::logic_error);
}

TEST(ChildMode, TheBuildChildRefusesWrongArguments) {
  char exe[] = "exe", flag[] = "--gpucmp-child-opencl-build", one[] = "0";
  char* too_few[] = {exe, flag, one, nullptr};
  EXPECT_EQ(run_child_mode(3, too_few), 2);
}

class IsolatedBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto found = platforms();
    if (found.empty() || devices(found.front()).empty()) GTEST_SKIP() << "no OpenCL device";
    set_session(std::make_unique<Session>(found.front(), devices(found.front()).front(), ""));
  }
};

TEST_F(IsolatedBuild, BuildsWithOptDisableInAChildProcess) {
  const opencl::IsolatedBuild r = build_opt_disabled(session(), "trapezoid.cl", "-DPROBE=1");
  EXPECT_FALSE(r.binary.empty());
  EXPECT_EQ(r.options, Session::options_with("-DPROBE=1 -cl-opt-disable"));
  EXPECT_NE(r.options.find("-cl-opt-disable"), std::string::npos);
}

TEST_F(IsolatedBuild, AFailedBuildIsABuildErrorWithTheChildsLog) {
  try {
    build_opt_disabled(session(), "trapezoid.cl", "-cl-no-such-option");
    FAIL() << "a broken build returned";
  } catch (const BuildError& e) {
    EXPECT_NE(std::string(e.what()).find("child process"), std::string::npos) << e.what();
    EXPECT_FALSE(e.log.empty());
  }
}

}  // namespace
}  // namespace gpucmp::opencl

int main(int argc, char** argv) {
  if (const int child = gpucmp::run_child_mode(argc, argv); child >= 0) return child;
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
