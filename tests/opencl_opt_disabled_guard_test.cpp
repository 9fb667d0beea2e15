// before_opt_disabled_build (opencl/opt_disabled_guard.h): the programs that
// take arrays by value are built before the process's first -cl-opt-disable
// build and served from the session's cache after it; one that would be built
// after it is refused as Unavailable, never built otherwise and timed. Its own executable: the
// mark is the process's. Runs on the first OpenCL device (PoCL without a
// GPU); skipped where there is none.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "errors.h"
#include "opencl/opt_disabled_guard.h"
#include "opencl/programs.h"
#include "opencl/session.h"

namespace gpucmp::opencl {
namespace {

const ProgramSpec& spec(const std::string& workload, const std::string& variant) {
  for (const ProgramSpec& s : program_specs())
    if (s.workload == workload && s.variant == variant) return s;
  throw std::logic_error("no program " + workload + "/" + variant);
}

TEST(OptDisabledGuard, ByValueProgramsAreBuiltBeforeAndRefusedAfter) {
  const auto found = platforms();
  if (found.empty() || devices(found.front()).empty()) GTEST_SKIP() << "no OpenCL device";
  set_session(std::make_unique<Session>(found.front(), devices(found.front()).front(), ""));
  Session& s = session();
  const ProgramSpec& byvalue = spec("cp", "unrollx8-byvalue");
  const ProgramSpec& plain = spec("cp", "unrollx8");
  ASSERT_TRUE(byvalue.arrays_by_value);
  ASSERT_FALSE(plain.arrays_by_value);
  // Before any -cl-opt-disable build: built whenever asked for.
  EXPECT_NO_THROW(s.program(byvalue));
  s.forget_programs();
  EXPECT_FALSE(opt_disabled_built());
  before_opt_disabled_build(s);
  EXPECT_TRUE(opt_disabled_built());
  // Built by that call, so served from the cache.
  EXPECT_NO_THROW(s.program(byvalue));
  EXPECT_NO_THROW(s.program(spec("mriq", "precise-byvalue")));
  EXPECT_NO_THROW(s.program(spec("mrifhd", "fast-byvalue")));
  // Built after it: refused, naming why; a program without such arrays builds.
  s.forget_programs();
  try {
    s.program(byvalue);
    FAIL() << "a by-value program was built after a -cl-opt-disable build";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("-cl-opt-disable"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(s.program(plain));
  // The PTX-loaded by-value form is refused before its PTX is asked for.
  const ProgramSpec& ftz = spec("cp", "unrollx8-fast-byvalue-ptx-ftz");
  ASSERT_TRUE(ftz.arrays_by_value);
  EXPECT_THROW(s.program(ftz), Unavailable);
  EXPECT_NO_THROW(check_build_after_opt_disabled(plain));
}

}  // namespace
}  // namespace gpucmp::opencl
