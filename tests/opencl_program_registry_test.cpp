// How the OpenCL program list is put together (opencl/programs.h): every
// workload's programs registered beside its runner (GPUCMP_PROGRAMS), in an
// order set by file path alone, and a (workload, variant) name registered
// twice an error that names both files.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "program_spec_helpers.h"
#include "programs.h"

namespace gpucmp::opencl {
namespace {

// Everything a program is, as one line (ProgramSpec has no operator==).
std::vector<std::string> lines(const std::vector<ProgramSpec>& specs) {
  std::vector<std::string> out;
  out.reserve(specs.size());
  for (const ProgramSpec& s : specs)
    out.push_back(s.workload + "/" + s.variant + " file=" + s.file + " nv=" + s.nvidia_options +
                  " ptx=" + s.ptx + " entry=" + s.entry + " kernel=" + s.kernel + " " +
                  describe(s));
  return out;
}

void add_first(std::vector<ProgramSpec>& specs) {
  specs.push_back(source("fake", "a", "fake.cl", ""));
}
void add_second(std::vector<ProgramSpec>& specs) {
  specs.push_back(source("fake", "b", "fake.cl", kFast));
  specs.push_back(derived(source("fake", "b", "fake.cl", kFast), "ptx-O0", ProgramFrom::ptx_O0));
}
void add_first_again(std::vector<ProgramSpec>& specs) {
  specs.push_back(source("fake", "a", "other.cl", "-DOTHER"));
}

TEST(ProgramRegistry, EveryWorkloadRegisteredItsPrograms) {
  EXPECT_GT(program_registrations().size(), 10u);
  std::set<std::string> with_source;
  for (const ProgramSpec& s : program_specs())
    if (s.from == ProgramFrom::source) with_source.insert(s.workload);
  for (const char* w :
       {"matrixMul", "cp", "mriq", "mrifhd", "triad", "advection", "ceiling", "mmnaive", "bilinear",
        "sort", "trapezoid", "lavamd", "bodies", "layoutconv", "reduce", "scan"})
    EXPECT_TRUE(with_source.count(w)) << w << " registered no program";
  // Beside the runners, in the study folders, not in the list's own file.
  for (const ProgramRegistration& r : program_registrations())
    EXPECT_EQ(r.file.find("programs.cpp"), std::string::npos) << r.file;
}

TEST(ProgramRegistry, NoNameIsRegisteredTwice) {
  EXPECT_NO_THROW(collect_program_specs(program_registrations()));
  std::set<std::string> names;
  for (const ProgramSpec& s : program_specs())
    EXPECT_TRUE(names.insert(s.workload + "/" + s.variant).second)
        << s.workload << "/" << s.variant << " registered twice";
}

TEST(ProgramRegistry, ANameRegisteredTwiceIsAnErrorNamingBothFiles) {
  try {
    collect_program_specs({{"opencl/x/one.cpp", &add_first},
                           {"opencl/y/two.cpp", &add_second},
                           {"opencl/z/three.cpp", &add_first_again}});
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("fake/a registered twice"), std::string::npos) << what;
    EXPECT_NE(what.find("opencl/x/one.cpp"), std::string::npos) << what;
    EXPECT_NE(what.find("opencl/z/three.cpp"), std::string::npos) << what;
  }
  // Twice from one file is the same error.
  EXPECT_THROW(
      collect_program_specs({{"opencl/x/one.cpp", &add_first}, {"opencl/x/one.cpp", &add_first}}),
      std::logic_error);
  EXPECT_NO_THROW(
      collect_program_specs({{"opencl/x/one.cpp", &add_first}, {"opencl/y/two.cpp", &add_second}}));
}

// The order is the files' (then each block's own), whatever order the linker
// ran the registrars in.
TEST(ProgramRegistry, OrderIsByFilePathNotByRegistration) {
  const std::vector<ProgramSpec> forward =
      collect_program_specs({{"opencl/a/one.cpp", &add_first}, {"opencl/b/two.cpp", &add_second}});
  const std::vector<ProgramSpec> backward =
      collect_program_specs({{"opencl/b/two.cpp", &add_second}, {"opencl/a/one.cpp", &add_first}});
  EXPECT_EQ(lines(forward), lines(backward));
  ASSERT_EQ(forward.size(), 3u);
  EXPECT_EQ(forward[0].variant, "a");
  EXPECT_EQ(forward[1].variant, "b");
  EXPECT_EQ(forward[2].variant, "b-ptx-O0");

  std::vector<ProgramRegistration> reversed = program_registrations();
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(lines(collect_program_specs(reversed)), lines(program_specs()));
}

}  // namespace
}  // namespace gpucmp::opencl
