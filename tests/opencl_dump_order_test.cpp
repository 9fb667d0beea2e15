// The order gpucmp-ptx dump builds the catalog's programs in (ptx_dump.h
// dump_order): the shards split the catalog as before, and in each shard the
// -cl-opt-disable builds (ptx_O0, ptx_passes) come after every other one,
// since after one NVIDIA's OpenCL builds arrays taken by value otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "opencl/programs.h"
#include "opencl/ptx_dump.h"

namespace gpucmp::opencl {
namespace {

bool opt_disabled(const ProgramSpec& s) {
  return s.from == ProgramFrom::ptx_O0 || s.from == ProgramFrom::ptx_passes;
}

std::string name(const ProgramSpec& s) { return s.workload + "/" + s.variant; }

TEST(DumpOrder, OptDisabledBuildsComeLastInEveryShardAndTheShardsSplitTheCatalog) {
  const std::vector<ProgramSpec>& catalog = program_specs();
  std::set<std::string> expected, seen;
  int byvalue = 0, o0 = 0;
  for (const ProgramSpec& s : catalog)
    if (s.from != ProgramFrom::ptx_as_built) expected.insert(name(s));
  for (int k = 0; k < 8; ++k) {
    const std::vector<ProgramSpec> shard = dump_order(catalog, "", {k, 8});
    bool after = false;
    for (const ProgramSpec& s : shard) {
      if (opt_disabled(s)) ++o0;
      if (s.arrays_by_value) ++byvalue;
      after = after || opt_disabled(s);
      EXPECT_TRUE(!after || opt_disabled(s)) << name(s) << " is built after a -cl-opt-disable one";
      EXPECT_TRUE(seen.insert(name(s)).second) << name(s) << " in two shards";
    }
  }
  EXPECT_EQ(seen, expected);
  EXPECT_GT(o0, 0);
  EXPECT_GT(byvalue, 0);
}

TEST(DumpOrder, TheFilterKeepsTheCatalogsOrderOtherwise) {
  const std::vector<ProgramSpec> cp = dump_order(program_specs(), "cp/", {});
  ASSERT_FALSE(cp.empty());
  std::vector<std::string> names;
  for (const ProgramSpec& s : cp) {
    EXPECT_EQ(s.workload, "cp");
    names.push_back(name(s));
  }
  // cp/base is the catalog's first cp program; cp/unrollx8-ptx-O0 is listed
  // before the by-value forms in the catalog, and after them here.
  EXPECT_EQ(names.front(), "cp/base");
  const auto at = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) - names.begin();
  };
  EXPECT_LT(at("cp/unrollx8-byvalue"), at("cp/unrollx8-ptx-O0"));
  EXPECT_LT(at("cp/unrollx8-ptx-O0"), long(names.size()));
}

}  // namespace
}  // namespace gpucmp::opencl
