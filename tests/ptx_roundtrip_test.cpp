// Every PTX fixture (tests/fixtures/ptx/**/*.ptx, found at run time so that new
// fixtures are covered without editing this file): print(parse(x)) is a fixed
// point, normalize() is idempotent, and ptxas accepts the printed and the
// normalized text.
#include <gtest/gtest.h>

#include <regex>

#include "ptx/diff.h"
#include "ptx/files.h"
#include "ptx/normalize.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

std::vector<std::string> fixtures() {
  auto files = list_files(GPUCMP_PTX_FIXTURES);
  EXPECT_GE(files.size(), 10u) << "fixtures missing under " << GPUCMP_PTX_FIXTURES;
  return files;
}

TEST(PtxRoundTrip, EveryFixtureParses) {
  for (const auto& path : fixtures()) {
    SCOPED_TRACE(path);
    const Module m = parse_file(path);
    EXPECT_FALSE(m.functions.empty());
    EXPECT_FALSE(m.sm_target().empty());
  }
}

TEST(PtxRoundTrip, PrintIsAFixedPoint) {
  for (const auto& path : fixtures()) {
    SCOPED_TRACE(path);
    const std::string once = print(parse_file(path));
    const std::string twice = print(parse(once, path + " (printed)"));
    EXPECT_EQ(once, twice);
  }
}

TEST(PtxRoundTrip, PrintKeepsEveryInstruction) {
  for (const auto& path : fixtures()) {
    SCOPED_TRACE(path);
    const Module a = parse_file(path);
    const Module b = parse(print(a), path + " (printed)");
    ASSERT_EQ(a.functions.size(), b.functions.size());
    for (std::size_t f = 0; f < a.functions.size(); ++f) {
      const auto& x = a.functions[f].body;
      const auto& y = b.functions[f].body;
      ASSERT_EQ(x.size(), y.size()) << a.functions[f].name;
      for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(print(x[i]), print(y[i]));
    }
  }
}

TEST(PtxRoundTrip, NormalizeIsIdempotent) {
  for (const auto& path : fixtures()) {
    SCOPED_TRACE(path);
    Module m = parse_file(path);
    normalize(m);
    const std::string once = print(m);
    Module again = parse(once, path + " (normalized)");
    normalize(again);
    EXPECT_EQ(once, print(again));
  }
}

TEST(PtxRoundTrip, DiffWithItselfIsEqual) {
  for (const auto& path : fixtures()) {
    SCOPED_TRACE(path);
    const Module m = parse_file(path);
    const DiffResult r = diff(m, m, "a.ptx", "b.ptx");
    EXPECT_TRUE(r.equal);
    EXPECT_EQ(r.unified, "");
    EXPECT_FALSE(std::regex_search(r.stats_table, std::regex(R"( [+-]\d+\n)"))) << r.stats_table;
  }
}

// ---- ptxas ------------------------------------------------------------------

class PtxAssembles : public ::testing::Test {
 protected:
  void SetUp() override { GPUCMP_SKIP_WITHOUT_PTXAS(); }

  void expect_assembles(const std::string& path, const std::string& text) {
    const std::string arch = parse(text, path).sm_target();
    ASSERT_FALSE(arch.empty());
    std::string output;
    EXPECT_EQ(run_ptxas(text, arch, output), 0) << output;
  }
};

TEST_F(PtxAssembles, PrintedFixtures) {
  for (const auto& path : fixtures()) {
    SCOPED_TRACE(path);
    expect_assembles(path, print(parse_file(path)));
  }
}

TEST_F(PtxAssembles, NormalizedFixtures) {
  for (const auto& path : fixtures()) {
    SCOPED_TRACE(path);
    Module m = parse_file(path);
    normalize(m);
    expect_assembles(path, print(m));
  }
}

}  // namespace
}  // namespace gpucmp::ptx
