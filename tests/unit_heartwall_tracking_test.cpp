// HeartWall's CPU reference tracking (harness/workloads/heartwall/tracking.h):
// Rodinia's correlation and normalization, positions against the generated
// sequence's truth, the maxMove box, the template updates at Rodinia's frames,
// and determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "errors.h"
#include "workloads/heartwall/sequence.h"
#include "workloads/heartwall/track_ncc.h"
#include "workloads/heartwall/tracking.h"

namespace gpucmp::heartwall {
namespace {

// 16 frames: end-systole (frame 13, the largest excursion) and the template
// update after frame 10.
constexpr int kFrames = 16;

const Sequence& seq16() {
  static const Sequence s = make_sequence(kFrames, 1);
  return s;
}

const TrackResult& tracked16() {
  static const TrackResult r = [] {
    const auto start = std::chrono::steady_clock::now();
    TrackResult t = track(seq16(), kFrames);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::printf("track(%d frames): %.3f s\n", kFrames, took.count());
    return t;
  }();
  return r;
}

// Rodinia's correlation at one displacement straight from its definition:
// the template over the zero-padded area, no cumulative sums.
double direct_ncc(const Sequence& s, int frame, Point anchor, const Template& t, int dr, int dc) {
  double cross = 0;
  double sum = 0;
  double sum_sq = 0;
  double t_sum = 0;
  double t_sq = 0;
  for (int y = 0; y < kTemplateSide; ++y)
    for (int x = 0; x < kTemplateSide; ++x) {
      const double tv = t[std::size_t(y) * kTemplateSide + std::size_t(x)];
      t_sum += tv;
      t_sq += tv * tv;
      const int ay = dr + y - kTemplateRadius;  // from the anchor
      const int ax = dc + x - kTemplateRadius;
      if (std::abs(ay) > kSearchRadius || std::abs(ax) > kSearchRadius) continue;
      const double v = s.at(frame, anchor.row + ay, anchor.col + ax);
      cross += tv * v;
      sum += v;
      sum_sq += v * v;
    }
  const double n = kTemplateElems;
  const double t_dev = std::sqrt(t_sq / n - (t_sum / n) * (t_sum / n));
  return (cross - sum * t_sum / n) / (std::sqrt(sum_sq - sum * sum / n) * std::sqrt(n - 1) * t_dev);
}

TEST(HeartwallTracking, CorrelationIsRodiniasNormalization) {
  const Sequence& s = seq16();
  const Point p = s.point(3);
  const Template t = cut_template(s, 0, p);
  const TemplateStats stats = template_stats(t);
  // A perfect match gives sqrt(n / (n - 1)), Rodinia's denomT using n - 1.
  const SearchArea same(s, 0, p);
  EXPECT_NEAR(same.ncc(t, stats, 0, 0), std::sqrt(2601.0 / 2600.0), 1e-12);
  // Cumulative sums against the definition, whole and partial overlaps.
  const SearchArea next(s, 5, p);
  for (const auto& [dr, dc] :
       {std::pair{0, 0}, {-3, 4}, {15, -15}, {-40, 22}, {65, -65}, {-64, 61}})
    EXPECT_NEAR(next.ncc(t, stats, dr, dc), direct_ncc(s, 5, p, t, dr, dc), 1e-10)
        << dr << ", " << dc;
}

TEST(HeartwallTracking, FrameZeroIsTheInputPoints) {
  const TrackResult& r = tracked16();
  ASSERT_EQ(r.frames, kFrames);
  ASSERT_EQ(r.points, seq16().points());
  for (int p = 0; p < r.points; ++p) {
    EXPECT_EQ(r.at(0, p), seq16().point(p)) << "point " << p;
    EXPECT_EQ(r.anchor_row[r.index(0, p)], seq16().point(p).row);
    EXPECT_EQ(r.anchor_col[r.index(0, p)], seq16().point(p).col);
  }
}

TEST(HeartwallTracking, StaysNearTheTruth) {
  // Measured on seed 1's 16 frames: at most 3.09 px, 0.5 px on average
  // (Euclidean); Rodinia's OpenMP heartwall gave 3.1 px and 0.47 on all 104.
  const TrackResult& r = tracked16();
  double worst = 0;
  double total = 0;
  for (int f = 0; f < r.frames; ++f)
    for (int p = 0; p < r.points; ++p) {
      const PointF truth = seq16().truth(f, p);
      const Point at = r.at(f, p);
      const double off = std::hypot(at.row - truth.row, at.col - truth.col);
      worst = std::max(worst, off);
      total += off;
    }
  const double mean = total / (r.frames * r.points);
  std::printf("off the truth: at most %.2f px, %.2f px on average\n", worst, mean);
  EXPECT_LE(worst, 3.5);
  EXPECT_LE(mean, 1.0);
}

TEST(HeartwallTracking, MovesStayInTheBox) {
  const TrackResult& r = tracked16();
  // Seed 1's 16 frames: the smallest lead of the peak over the box's next
  // value is 2.5e-4 of the peak: no near tie (kTieTolerance 1e-4), so the
  // GPU's positions must all match here.
  double smallest_margin = 1;
  int near_ties = 0;
  for (int f = 1; f < r.frames; ++f)
    for (int p = 0; p < r.points; ++p) {
      const Point now = r.at(f, p);
      const Point before = r.at(f - 1, p);
      EXPECT_GE(now.row - before.row, kBoxLow);
      EXPECT_LE(now.row - before.row, kBoxHigh);
      EXPECT_GE(now.col - before.col, kBoxLow);
      EXPECT_LE(now.col - before.col, kBoxHigh);
      EXPECT_GT(r.peak[r.index(f, p)], 0.3);
      const double lead = r.margin[r.index(f, p)] / r.peak[r.index(f, p)];
      smallest_margin = std::min(smallest_margin, lead);
      near_ties += lead < kTieTolerance ? 1 : 0;
    }
  std::printf("smallest peak margin: %.2e of the peak; %d near ties of %d\n", smallest_margin,
              near_ties, (r.frames - 1) * r.points);
  EXPECT_EQ(near_ties, 0);
}

TEST(HeartwallTracking, UpdatesTheTemplateAtRodiniasFrames) {
  for (int f = 0; f <= 40; ++f)
    EXPECT_EQ(updates_template(f), f == 10 || f == 20 || f == 30 || f == 40);

  const Sequence& s = seq16();
  PointTracker tracker(s, s.point(7));
  for (int f = 1; f <= 12; ++f) {
    const Template before = tracker.templ();
    const Point anchor = tracker.anchor();
    tracker.step();
    if (f == 10) {
      EXPECT_EQ(tracker.anchor(), tracker.position());
      const Template patch = cut_template(s, 10, tracker.position());
      for (std::size_t i = 0; i < before.size(); ++i)
        ASSERT_EQ(tracker.templ()[i], 0.87 * before[i] + 0.13 * patch[i]) << i;
    } else {
      EXPECT_EQ(tracker.anchor(), anchor) << "frame " << f;
      EXPECT_EQ(tracker.templ(), before) << "frame " << f;
    }
  }
  // track() searches frames 1 to 10 around the point, 11 on around frame 10's position.
  const TrackResult& r = tracked16();
  for (int p = 0; p < r.points; ++p)
    for (int f = 1; f < r.frames; ++f) {
      const Point anchor{r.anchor_row[r.index(f, p)], r.anchor_col[r.index(f, p)]};
      EXPECT_EQ(anchor, f <= 10 ? s.point(p) : r.at(10, p)) << "point " << p << " frame " << f;
    }
}

TEST(HeartwallTracking, IsDeterministic) {
  const TrackResult again = track(seq16(), kFrames);
  const TrackResult& r = tracked16();
  EXPECT_EQ(again.row, r.row);
  EXPECT_EQ(again.col, r.col);
  EXPECT_EQ(again.peak, r.peak);
  EXPECT_EQ(again.margin, r.margin);
  // A shorter run is the longer one's start.
  const TrackResult short_run = track(seq16(), 3);
  for (int f = 0; f < 3; ++f)
    for (int p = 0; p < r.points; ++p) EXPECT_EQ(short_run.at(f, p), r.at(f, p));
}

TEST(HeartwallTracking, RejectsFramesOutsideTheSequence) {
  EXPECT_THROW(track(seq16(), 0), UsageError);
  EXPECT_THROW(track(seq16(), kFrames + 1), UsageError);
  PointTracker tracker(seq16(), seq16().point(0));
  for (int f = 1; f < kFrames; ++f) tracker.step();
  EXPECT_THROW(tracker.step(), UsageError);
}

}  // namespace
}  // namespace gpucmp::heartwall
