#include "tracking.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "../../errors.h"
#include "../../parallel_for.h"

namespace gpucmp::heartwall {

PointTracker::PointTracker(const Sequence& seq, Point start)
    : seq_(&seq),
      position_(start),
      anchor_(start),
      templ_(cut_template(seq, 0, start)),
      stats_(template_stats(templ_)) {}

void PointTracker::step() {
  const int f = frame_ + 1;
  if (f >= seq_->frames)
    throw UsageError("heartwall: no frame " + std::to_string(f) + " to track in a sequence of " +
                     std::to_string(seq_->frames));
  const SearchArea area(*seq_, f, anchor_);

  // Rodinia multiplies the 131 x 131 correlation by a mask that is 1 on the
  // box and 0 elsewhere, then takes the first largest |value| in column-major
  // order, starting from 0 at the map's first element: outside the box only
  // zeros (or NaN) remain, which never win. Displacements are from the anchor.
  const int dr0 = position_.row - anchor_.row;
  const int dc0 = position_.col - anchor_.col;
  const int r_lo = std::max(dr0 + kBoxLow, -kCorrRadius);
  const int r_hi = std::min(dr0 + kBoxHigh, kCorrRadius);
  const int c_lo = std::max(dc0 + kBoxLow, -kCorrRadius);
  const int c_hi = std::min(dc0 + kBoxHigh, kCorrRadius);
  box_.clear();
  double best = 0;
  double second = 0;
  int best_dr = -kCorrRadius;  // the map's first element, if nothing beats 0
  int best_dc = -kCorrRadius;
  for (int dc = c_lo; dc <= c_hi; ++dc)
    for (int dr = r_lo; dr <= r_hi; ++dr) {
      const double ncc = area.ncc(templ_, stats_, dr, dc);
      box_.push_back({dr, dc, ncc});
      const double v = std::fabs(ncc);
      if (v > best) {
        second = best;
        best = v;
        best_dr = dr;
        best_dc = dc;
      } else if (v > second) {
        second = v;
      }
    }
  frame_ = f;
  position_ = {anchor_.row + best_dr, anchor_.col + best_dc};
  peak_ = best;
  margin_ = best - second;

  if (updates_template(f)) {
    anchor_ = position_;
    const Template patch = cut_template(*seq_, f, anchor_);
    for (std::size_t i = 0; i < templ_.size(); ++i)
      templ_[i] = kAlpha * templ_[i] + (1.0 - kAlpha) * patch[i];
    stats_ = template_stats(templ_);
  }
}

TrackResult track(const Sequence& seq, int frames) {
  if (frames < 1 || frames > seq.frames)
    throw UsageError("heartwall: cannot track " + std::to_string(frames) +
                     " frames of a sequence of " + std::to_string(seq.frames));
  TrackResult r;
  r.frames = frames;
  r.points = seq.points();
  const std::size_t n = std::size_t(frames) * std::size_t(r.points);
  r.row.resize(n);
  r.col.resize(n);
  r.anchor_row.resize(n);
  r.anchor_col.resize(n);
  r.peak.resize(n);
  r.margin.resize(n);
  r.last_box.resize(std::size_t(r.points));
  // Points never meet: each thread writes its own points' entries.
  parallel_for(std::size_t(r.points), 1, [&](std::size_t begin, std::size_t end, unsigned) {
    for (auto p = int(begin); p < int(end); ++p) {
      PointTracker tracker(seq, seq.point(p));
      for (int f = 0; f < frames; ++f) {
        const Point anchor = tracker.anchor();
        if (f > 0) tracker.step();
        const std::size_t i = r.index(f, p);
        r.row[i] = tracker.position().row;
        r.col[i] = tracker.position().col;
        r.anchor_row[i] = anchor.row;
        r.anchor_col[i] = anchor.col;
        r.peak[i] = tracker.peak();
        r.margin[i] = tracker.margin();
      }
      r.last_box[std::size_t(p)] = tracker.box();
    }
  });
  return r;
}

}  // namespace gpucmp::heartwall
