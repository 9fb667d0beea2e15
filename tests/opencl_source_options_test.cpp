// A program's NVIDIA-only options (ProgramSpec::nvidia_options) reach every
// build of it on NVIDIA's driver: the runners' (Session::program(spec)), the
// PTX variants' source builds and `gpucmp-ptx dump` all take its options from
// Session::source_options, so the kernel dumped is the kernel timed. Without
// them a variant such as advection's async-cpasync times the plain kernel
// while its dump shows the cp.async build.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "opencl/programs.h"
#include "opencl/session.h"

namespace gpucmp::opencl {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::vector<ProgramSpec> with_nvidia_options() {
  std::vector<ProgramSpec> out;
  for (const ProgramSpec& s : program_specs())
    if (!s.nvidia_options.empty()) out.push_back(s);
  return out;
}

TEST(SourceOptions, NvidiaOnlyOptionsOnNvidiaAlone) {
  const std::vector<ProgramSpec> specs = with_nvidia_options();
  ASSERT_FALSE(specs.empty()) << "advection async-cpasync and scan onepass have NVIDIA options";
  for (const ProgramSpec& s : specs) {
    SCOPED_TRACE(s.workload + "/" + s.variant);
    EXPECT_TRUE(ends_with(driver_options(s, true), s.nvidia_options));
    EXPECT_EQ(driver_options(s, true).rfind(s.options, 0), 0u) << "its own options first";
    EXPECT_EQ(driver_options(s, false), s.options);
  }
  ProgramSpec none;
  none.options = "-DX";
  EXPECT_EQ(driver_options(none, true), "-DX");
  none.options.clear();
  none.nvidia_options = "-DNV";
  EXPECT_EQ(driver_options(none, true), "-DNV") << "no leading space";
}

// Every program with NVIDIA options, built the runners' way on the first
// device: its build carries the driver's options for it (on NVIDIA's driver
// the NVIDIA ones; on PoCL none of them).
TEST(SourceOptions, TheRunnersBuildCarriesThem) {
  const auto found = platforms();
  if (found.empty() || devices(found.front()).empty()) GTEST_SKIP() << "no OpenCL device";
  set_session(std::make_unique<Session>(found.front(), devices(found.front()).front(), ""));
  for (const ProgramSpec& s : with_nvidia_options()) {
    if (s.from != ProgramFrom::source) continue;
    SCOPED_TRACE(s.workload + "/" + s.variant);
    const std::string expected = session().source_options(s);
    EXPECT_EQ(expected, driver_options(s, session().is_nvidia(), session().info()));
    EXPECT_NE(session().program(s).options.find(expected), std::string::npos)
        << "built with: " << session().program(s).options;
    if (!session().is_nvidia()) {
      EXPECT_EQ(session().program(s).options.find(s.nvidia_options), std::string::npos);
    }
  }
  set_session(nullptr);
}

}  // namespace
}  // namespace gpucmp::opencl
