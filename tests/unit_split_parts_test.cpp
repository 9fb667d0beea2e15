// Unit tests of the parts of a split, no device needed:
// --split parsing and the rectangles each workload's part moves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "errors.h"
#include "split_options.h"
#include "work_split.h"
#include "workloads/worksize/bilinear.h"
#include "workloads/worksize/mmnaive.h"
#include "workloads/worksize/trapezoid.h"

namespace gpucmp {
namespace {

using Box = std::vector<long long>;

Box box(const Rect& r) { return {r.x, r.y, r.w, r.h}; }

std::string usage_error_of(const std::vector<std::string>& items) {
  try {
    parse_split_specs(items, "--split");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(SplitOptions, SweepIsElevenSharesAndSpecsRoundTripThroughToString) {
  const std::vector<SplitSpec> sweep = parse_split_specs({"sweep"}, "--split");
  ASSERT_EQ(sweep.size(), 11u);
  for (int tenth = 0; tenth <= 10; ++tenth)
    EXPECT_TRUE(sweep[tenth].fixed_share && sweep[tenth].share == tenth / 10.0) << tenth;
  EXPECT_EQ(to_string(sweep[0]) + " " + to_string(sweep[3]) + " " + to_string(sweep[10]),
            "share:0 share:0.3 share:1");
  const std::vector<std::string> items{"equal", "pe", "study-k", "calibrated", "share:0.3"};
  const std::vector<SplitSpec> want{{false, SplitRule::equal, 0},
                                    {false, SplitRule::pe_ratio, 0},
                                    {false, SplitRule::study_k, 0},
                                    {false, SplitRule::calibrated, 0},
                                    {true, SplitRule::equal, 0.3}};
  const auto key = [](const SplitSpec& s) { return std::tuple(s.fixed_share, s.rule, s.share); };
  const std::vector<SplitSpec> specs = parse_split_specs(items, "--split");
  ASSERT_EQ(specs.size(), items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ(key(specs[i]), key(want[i])) << items[i];
    EXPECT_EQ(to_string(specs[i]), items[i]);
    EXPECT_EQ(key(parse_split_specs({to_string(specs[i])}, "--split").at(0)), key(want[i]));
  }
}

TEST(SplitOptions, BadItemsAreOneLineUsageErrors) {
  for (const char* bad : {"share:1.5", "share:x", "share:-0.1", "share:"})
    EXPECT_EQ(usage_error_of({"equal", bad}),
              std::string("--split ") + bad + ": the share must be a number in 0..1");
  EXPECT_EQ(usage_error_of({"fastest"}),
            "--split fastest: not a split (equal, pe, study-k, calibrated, share:F with F in 0..1, "
            "sweep)");
}

TEST(SplitRects, PartRectIsABlockOfRowsOrColumns) {
  EXPECT_EQ(box(part_rect(Part{}, 100, 200)), (Box{0, 0, 100, 200}));
  EXPECT_EQ(box(part_rect({SplitAxis::y, 32, 64}, 100, 200)), (Box{0, 32, 100, 64}));
  EXPECT_EQ(box(part_rect({SplitAxis::x, 32, 64}, 100, 200)), (Box{32, 0, 64, 200}));
  EXPECT_TRUE(part_rect({SplitAxis::y, 96, 0}, 100, 200).empty());
}

TEST(SplitRects, MmnaiveRowsNeedTheirRowsOfAAndAllOfB) {
  const Part rows{SplitAxis::y, 16, 32}, cols{SplitAxis::x, 16, 32};
  EXPECT_EQ(box(mmnaive::c_rect(64, rows)), (Box{0, 16, 64, 32}));
  EXPECT_EQ(box(mmnaive::a_rect(64, rows)), (Box{0, 16, 64, 32}));
  EXPECT_EQ(box(mmnaive::b_rect(64, rows)), (Box{0, 0, 64, 64}));
  EXPECT_EQ(box(mmnaive::c_rect(64, cols)), (Box{16, 0, 32, 64}));
  EXPECT_EQ(box(mmnaive::a_rect(64, cols)), (Box{0, 0, 64, 64}));
  EXPECT_EQ(box(mmnaive::b_rect(64, cols)), (Box{16, 0, 32, 64}));
  for (auto* rect : {&mmnaive::a_rect, &mmnaive::b_rect, &mmnaive::c_rect})
    EXPECT_EQ(box(rect(64, Part{})), (Box{0, 0, 64, 64}));
}

TEST(SplitRects, BilinearInRectIsExactlyTheInputItsPixelsRead) {
  for (const int out : {32, 64}) {
    const bilinear::Problem p = bilinear::make_problem(out);
    for (const bool rows : {true, false})
      for (int first = 0; first < out; ++first)  // every part, first and last included
        for (int count = 1; first + count <= out; ++count) {
          // The lowest x0 and highest x1 of the part's pixels, as the kernels compute them.
          const int in = rows ? p.in_h : p.in_w;
          long long lo = in, hi = -1;
          for (int i = first; i < first + count; ++i) {
            const int i0 =
                int(std::floor(bilinear::source_coord(i, rows ? p.scale_y : p.scale_x, in)));
            lo = std::min<long long>(lo, i0);
            hi = std::max<long long>(hi, std::min(i0 + 1, in - 1));
          }
          const Part part{rows ? SplitAxis::y : SplitAxis::x, first, count};
          const Box in_box = rows ? Box{0, lo, p.in_w, hi - lo + 1} : Box{lo, 0, hi - lo + 1, in};
          const Box out_box = rows ? Box{0, first, out, count} : Box{first, 0, count, out};
          ASSERT_EQ(box(bilinear::in_rect(p, part)), in_box)
              << "out " << out << (rows ? " rows " : " columns ") << first << "+" << count;
          ASSERT_EQ(box(bilinear::out_rect(p, part)), out_box);
        }
  }
  // By hand, 256 from 128: pixel i reads floor(i / 2 - 0.25) and the next, clamped.
  const bilinear::Problem p = bilinear::make_problem(256);
  EXPECT_EQ(box(bilinear::in_rect(p, {SplitAxis::y, 0, 16})), (Box{0, 0, 128, 9}));
  EXPECT_EQ(box(bilinear::in_rect(p, {SplitAxis::y, 64, 64})), (Box{0, 31, 128, 34}));
  EXPECT_EQ(box(bilinear::in_rect(p, {SplitAxis::x, 240, 16})), (Box{119, 0, 9, 128}));
  EXPECT_EQ(box(bilinear::in_rect(p, Part{})), (Box{0, 0, 128, 128}));
  EXPECT_TRUE(bilinear::in_rect(p, {SplitAxis::y, 64, 0}).empty());
}

TEST(SplitRects, TrapezoidItemsRectIsOneRowOfItems) {
  trapezoid::Problem p;
  p.items = 1024;
  EXPECT_EQ(box(trapezoid::items_rect(p, {SplitAxis::x, 256, 512})), (Box{256, 0, 512, 1}));
  EXPECT_EQ(box(trapezoid::items_rect(p, Part{})), (Box{0, 0, 1024, 1}));
  EXPECT_TRUE(trapezoid::items_rect(p, {SplitAxis::x, 1024, 0}).empty());
}

}  // namespace
}  // namespace gpucmp
