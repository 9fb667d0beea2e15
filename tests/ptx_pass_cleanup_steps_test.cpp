// pass_cleanup's three passes (ptx/passes.h), each alone through run_passes():
// inline, promote-slots and copy-prop do only their own part on the
// hand-written modules, and cleanup is the three in this order on those and
// on every PTX fixture.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptx/files.h"
#include "ptx/parser.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptx_cleanup_fixtures.h"

namespace gpucmp::ptx {
namespace {

using test::any_note_contains;
using test::depot_kernel;
using test::has_line;
using test::kCalls;
using test::kCopies;
using test::kHeader;
using test::kSlots;
using test::lines;

// ---- cleanup's three passes, alone ------------------------------------------------

// One pass through run_passes(), its report checked for its name.
PassReport run_one(Module& m, const std::string& pass) {
  std::vector<PassReport> reports;
  run_passes(m, {pass}, false, &reports);
  EXPECT_EQ(reports.at(0).pass, pass);
  return reports.at(0);
}

int instructions(const Module& m) {
  int n = 0;
  for (const Function& f : m.functions) n += count_instructions(f);
  return n;
}

TEST(PtxPassCleanupSteps, InlineOnlyInlines) {
  Module m = parse(kHeader + kCalls, "calls.ptx");
  const PassReport r = run_one(m, "inline");
  EXPECT_EQ(r.changed, 2);
  EXPECT_TRUE(any_note_contains(r, "removed unused functions pick, sync_all"));
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_FALSE(has_line(m.functions[0], "call.uni (retval0), pick, (param0);")) << print(m);
  EXPECT_TRUE(has_line(m.functions[0], "bar.sync 0;")) << print(m);
  Module cleaned = parse(kHeader + kCalls, "calls.ptx");
  pass_cleanup(cleaned);
  EXPECT_EQ(instructions(m), instructions(cleaned) + 2);  // the copies copy-prop removes
  // No call, so nothing to do on the slots kernel.
  Module slots = parse(depot_kernel(kSlots), "slots.ptx");
  const std::string before = print(slots);
  EXPECT_EQ(run_one(slots, "inline").changed, 0);
  EXPECT_EQ(print(slots), before);
}

TEST(PtxPassCleanupSteps, PromoteSlotsOnlyPromotes) {
  Module m = parse(depot_kernel(kSlots), "slots.ptx");
  const PassReport r = run_one(m, "promote-slots");
  EXPECT_EQ(r.changed, 3);
  EXPECT_TRUE(
      any_note_contains(r, "3 stack slots of __local_depot0 promoted to registers, depot removed"));
  for (const std::string& line : lines(m.functions[0]))
    EXPECT_EQ(line.find("SP"), std::string::npos) << line;
  EXPECT_TRUE(has_line(m.functions[0], "mov.u32 %sl4, %r1;")) << print(m);  // copy-prop's work
  Module calls = parse(kHeader + kCalls, "calls.ptx");
  EXPECT_EQ(run_one(calls, "promote-slots").changed, 0);
  EXPECT_EQ(calls.functions.size(), 4u);  // pick's prototype, k, pick, sync_all: none removed
}

TEST(PtxPassCleanupSteps, CopyPropOnlyPropagates) {
  Module m = parse(kHeader + kCopies, "copies.ptx");
  EXPECT_EQ(run_one(m, "copy-prop").changed, 2);
  Module cleaned = parse(kHeader + kCopies, "copies.ptx");
  pass_cleanup(cleaned);
  EXPECT_EQ(print(m), print(cleaned));
  Module slots = parse(depot_kernel(kSlots), "slots.ptx");
  run_one(slots, "copy-prop");
  EXPECT_TRUE(has_line(slots.functions[0], "st.u32 [%SP+4], %r1;")) << print(slots);
}

// cleanup is inline, promote-slots and copy-prop in this order: the same text,
// `changed` their sum, and their notes after a summary of the three counts.
void expect_cleanup_is_its_steps(const Module& original) {
  Module whole = original, steps = original, direct = original;
  std::vector<PassReport> a, b;
  run_passes(whole, {"cleanup"}, false, &a);
  run_passes(steps, {"inline", "promote-slots", "copy-prop"}, false, &b);
  EXPECT_EQ(print(whole), print(steps));
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(a[0].changed, b[0].changed + b[1].changed + b[2].changed);
  std::vector<std::string> notes = {"calls inlined: " + std::to_string(b[0].changed) +
                                    ", stack slots promoted: " + std::to_string(b[1].changed) +
                                    ", copies propagated: " + std::to_string(b[2].changed)};
  for (const PassReport& r : b) notes.insert(notes.end(), r.notes.begin(), r.notes.end());
  EXPECT_EQ(a[0].notes, notes);
  const PassReport d = pass_cleanup(direct);
  EXPECT_EQ(print(direct), print(whole));
  EXPECT_EQ(d.changed, a[0].changed);
  EXPECT_EQ(d.notes, a[0].notes);
}

TEST(PtxPassCleanupSteps, CleanupIsTheThreeInOrder) {
  expect_cleanup_is_its_steps(parse(kHeader + kCalls, "calls.ptx"));
  expect_cleanup_is_its_steps(parse(depot_kernel(kSlots), "slots.ptx"));
  expect_cleanup_is_its_steps(parse(kHeader + kCopies, "copies.ptx"));
  const auto files = list_files(GPUCMP_PTX_FIXTURES);
  ASSERT_GE(files.size(), 10u);
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    expect_cleanup_is_its_steps(parse_file(path));
  }
}

}  // namespace
}  // namespace gpucmp::ptx
