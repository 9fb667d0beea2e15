// HeartWall's kernels' host side (harness/workloads/heartwall/heartwall.h,
// track_check.h): the tie rule that validates the FP32 kernels against the
// CPU reference (equal positions; a first difference only at a near tie, not
// compared after it; anything else a failure naming the point and frame),
// the final state's check, the FP32 correlations' check (the rule's
// premise), the hwpoint record's accessors, the layouts the
// workload offers, and its bad frame counts.
#include <gpucmp_layouts.h>
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <numeric>
#include <vector>

#include "errors.h"
#include "workloads/heartwall/heartwall.h"
#include "workloads/heartwall/track_check.h"
#include "workloads/layout/layouts.h"

namespace gpucmp::heartwall {
namespace {

// A reference of 3 frames x 2 points: point p at (10 p + f, 20 + f) in frame
// f; every peak 1 and every lead 0.5, but point 1's at frame 2, a near tie.
TrackResult small_reference() {
  TrackResult r;
  r.frames = 3;
  r.points = 2;
  for (int f = 0; f < r.frames; ++f)
    for (int p = 0; p < r.points; ++p) {
      r.row.push_back(10 * p + f);
      r.col.push_back(20 + f);
      r.anchor_row.push_back(10 * p);
      r.anchor_col.push_back(20);
      r.peak.push_back(f == 0 ? 0.0 : 1.0);
      r.margin.push_back(f == 0 ? 0.0 : (p == 1 && f == 2 ? 0.5 * kTieTolerance : 0.5));
    }
  return r;
}

DeviceTrack as_device(const TrackResult& r) {
  DeviceTrack t;
  for (std::size_t i = 0; i < r.row.size(); ++i) {
    t.push_back(r.row[i]);
    t.push_back(r.col[i]);
  }
  return t;
}

TEST(HeartWallCheck, EqualTracksPass) {
  const TrackResult r = small_reference();
  const Validation v = check_track(r, as_device(r));
  EXPECT_TRUE(v.ok) << v.where;
  EXPECT_EQ(v.checked, 6u);
  EXPECT_EQ(v.where, "");
}

TEST(HeartWallCheck, ADifferenceAtANearTieStopsThatPointOnly) {
  const TrackResult r = small_reference();
  DeviceTrack t = as_device(r);
  t[std::size_t(2 * 2 + 1) * 2] += 3;  // point 1, frame 2: its near tie
  const Validation v = check_track(r, t);
  EXPECT_TRUE(v.ok) << v.where;
  EXPECT_NE(v.where.find("point 1, frame 2: got (15, 22), want (12, 22)"), std::string::npos)
      << v.where;
  EXPECT_NE(v.where.find("a near tie"), std::string::npos) << v.where;
  const PointCheck c = check_point(r, t, 1);
  EXPECT_EQ(c.first_difference, 2);
  EXPECT_TRUE(c.allowed);
}

TEST(HeartWallCheck, ADifferenceWithoutATieFailsNamingPointAndFrame) {
  const TrackResult r = small_reference();
  DeviceTrack t = as_device(r);
  t[(1 * 2 + 0) * 2 + 1] -= 2;  // point 0, frame 1: its column; the peak leads by half
  const Validation v = check_track(r, t);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.max_rel_err, 2.0);
  EXPECT_NE(v.where.find("point 0, frame 1: got (1, 19), want (1, 21)"), std::string::npos)
      << v.where;
  EXPECT_FALSE(check_point(r, t, 0).allowed);
}

TEST(HeartWallCheck, FrameZeroMustMatchAndSizeMustFit) {
  const TrackResult r = small_reference();
  DeviceTrack t = as_device(r);
  t[2] += 1;  // point 1, frame 0: no search there, so no tie
  EXPECT_FALSE(check_track(r, t).ok);
  const Validation v = check_track(r, DeviceTrack(5, 0));
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("5 track values, want 12"), std::string::npos) << v.where;
}

TEST(HeartWallCheck, FinalAnchorFollowsTheUpdates) {
  TrackResult r = small_reference();
  EXPECT_EQ(final_position(r, 1), (Point{12, 22}));
  EXPECT_EQ(final_anchor(r, 1), (Point{10, 20}));  // frame 2 updates nothing
}

// Where the kernels leave the correlation at displacement (dr, dc) of point p.
std::size_t map_index(int p, int dr, int dc) {
  return std::size_t(p) * kCorrElems + std::size_t(dc + kCorrRadius) * kCorrSide +
         std::size_t(dr + kCorrRadius);
}

// The reference against itself through validate(): what a device that
// tracked exactly as the reference would leave (its box correlations rounded
// to float), then one wrong word of each kind.
TEST(HeartWallCheck, ValidateChecksTrackFinalStateAndCorrelations) {
  Problem p = make_problem(kMinFrames);
  EXPECT_EQ(p.points, 51);
  EXPECT_EQ(p.pixels.size(), std::size_t(kMinFrames) * frame_elems());
  p.track = as_device(p.ref);
  for (int i = 0; i < p.points; ++i) {
    float* s = &p.state[std::size_t(i) * kStateWords];
    s[0] = float(final_position(p.ref, i).row);
    s[1] = float(final_position(p.ref, i).col);
    s[2] = float(final_anchor(p.ref, i).row);
    s[3] = float(final_anchor(p.ref, i).col);
    ASSERT_EQ(p.ref.last_box[std::size_t(i)].size(), std::size_t(kMaxMove * kMaxMove));
    for (const BoxValue& b : p.ref.last_box[std::size_t(i)])
      p.corr[map_index(i, b.dr, b.dc)] = float(b.ncc);
  }
  Validation v = validate(p);
  EXPECT_TRUE(v.ok) << v.where;
  EXPECT_EQ(v.checked, std::size_t(51 * kMaxMove * kMaxMove));
  EXPECT_LT(v.max_rel_err, 1e-7);  // float's rounding of values below 1.0002

  const BoxValue b = p.ref.last_box[3][42];
  const double peak = p.ref.peak[p.ref.index(kMinFrames - 1, 3)];
  p.corr[map_index(3, b.dr, b.dc)] = float(b.ncc + 2 * kTieTolerance * peak);
  v = validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_NEAR(v.max_rel_err, 2 * kTieTolerance, 1e-6);
  EXPECT_NE(v.where.find("point 3, frame 1, displacement (" + std::to_string(b.dr) + ", " +
                         std::to_string(b.dc) + ")"),
            std::string::npos)
      << v.where;
  p.corr[map_index(3, b.dr, b.dc)] = float(b.ncc);

  p.state[7 * kStateWords + 2] += 1;  // point 7's anchor row
  v = validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("point 7's final state: anchor"), std::string::npos) << v.where;
}

TEST(HeartWallCheck, FrameCountsOutsideTheSequenceAreUsageErrors) {
  EXPECT_THROW(make_problem(1), UsageError);
  EXPECT_THROW(make_problem(kRodiniaFrames + 1), UsageError);
}

TEST(HeartWallState, GeneratedAccessorsAreTheHostIndex) {
  const std::size_t n = 51;
  std::vector<float> s(n * HWPOINT_WORDS);
  std::iota(s.begin(), s.end(), 0.0f);
  for (const layout::Layout l : {layout::Layout::aos, layout::Layout::soa}) {
    const int GPUCMP_LAYOUT = int(l);
    const int GPUCMP_TILE = kDefaultTile;
    for (std::size_t i = 0; i < n; i += 5) {
      EXPECT_EQ(hwpoint_anchor_col(s, n, i), s[layout::index(l, 32, n, kStateWords, i, 3)]);
      EXPECT_EQ(hwpoint_templ(s, n, i, 2600), s[layout::index(l, 32, n, kStateWords, i, 4 + 2600)]);
    }
    (void)GPUCMP_LAYOUT;
    (void)GPUCMP_TILE;
  }
  EXPECT_STREQ(HWPOINT_FIELDS, "row,col,anchor_row,anchor_col,templ");
}

}  // namespace
}  // namespace gpucmp::heartwall

namespace gpucmp::layout {
namespace {

TEST(LayoutAxis, AWorkloadOffersFewerLayoutsAndSaysWhy) {
  LayoutAxis axis({Layout::aos, Layout::soa}, "tiles do not divide 51");
  EXPECT_EQ(axis.rows(), (std::vector<Layout>{Layout::aos, Layout::soa}));
  EXPECT_EQ(axis.parse("soa", "--x-layout"), Layout::soa);
  try {
    axis.parse("aosoa", "--x-layout");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--x-layout aosoa: not offered (aos, soa): tiles do not divide 51");
  }
  EXPECT_THROW(axis.parse("aosa", "--x-layout"), UsageError);
  CLI::App app;
  axis.add_option(app, "--x-layout", "x");
  app.parse(std::vector<std::string>{"soa", "--x-layout"});
  EXPECT_EQ(axis.rows(), std::vector<Layout>{Layout::soa});
  EXPECT_EQ(LayoutAxis().rows(), (std::vector<Layout>{Layout::aos, Layout::soa, Layout::aosoa}));
}

}  // namespace
}  // namespace gpucmp::layout
