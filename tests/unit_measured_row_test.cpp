// Unit tests of MeasuredRow (harness/measured_row.h): each setter writes the
// Measurement fields of its name, the rest keep their defaults, and a row
// without a runner is an error, never a Prepared that cannot run.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "measure_run_fixtures.h"
#include "measured_row.h"

namespace gpucmp {
namespace {

using test::FakeRunner;

TEST(MeasuredRow, EachSetterWritesItsFieldsAndTheRunnerMovesOut) {
  std::vector<std::string> log;
  int cleared = 0;
  const BenchName name{"triad", "opencl", "base", {{"n", "1024"}}};
  Prepared p = MeasuredRow(name)
                   .runner(std::make_unique<FakeRunner>(log))
                   .rate(RateUnit::GBps, 12.0, 3.5)
                   .roofline(2.0, 12.0)
                   .per_item(1024.0, "ps_per_element")
                   .clear_output([&cleared] { ++cleared; })
                   .counter("keeps_order", 1.0)
                   .prepared();
  ASSERT_NE(p.runner, nullptr);
  EXPECT_EQ(p.m.name.str(), name.str());
  EXPECT_EQ(p.m.unit, RateUnit::GBps);
  EXPECT_EQ(p.m.work_per_launch, 12.0);
  EXPECT_EQ(p.m.peak, 3.5);
  EXPECT_EQ(p.m.roofline_flop, 2.0);
  EXPECT_EQ(p.m.roofline_bytes, 12.0);
  EXPECT_EQ(p.m.items_per_launch, 1024.0);
  EXPECT_EQ(p.m.time_per_item_counter, "ps_per_element");
  ASSERT_TRUE(p.m.clear_output);
  p.m.clear_output();
  EXPECT_EQ(cleared, 1);
  ASSERT_EQ(p.m.counters.size(), 1u);
  EXPECT_EQ(p.m.counters[0].first, "keeps_order");
  // Not set: Measurement's defaults.
  EXPECT_FALSE(p.m.after_timing);
  EXPECT_EQ(p.m.commands_per_launch, Measurement{}.commands_per_launch);
}

TEST(MeasuredRow, ARowWithoutARunnerIsAnError) {
  const BenchName name{"triad", "cuda", "base", {{"n", "1024"}}};
  EXPECT_THROW(MeasuredRow(name).rate(RateUnit::GBps, 1.0, 0.0).prepared(), std::logic_error);
}

}  // namespace
}  // namespace gpucmp
