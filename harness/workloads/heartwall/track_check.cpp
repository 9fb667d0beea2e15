#include "track_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gpucmp::heartwall {
namespace {

Point device_at(const TrackResult& ref, const DeviceTrack& got, int frame, int point) {
  const std::size_t i = ref.index(frame, point) * 2;
  return {got[i], got[i + 1]};
}

std::string describe(Point p) {
  return "(" + std::to_string(p.row) + ", " + std::to_string(p.col) + ")";
}

std::string short_real(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", x);
  return buf;
}

}  // namespace

PointCheck check_point(const TrackResult& ref, const DeviceTrack& got, int point) {
  for (int f = 0; f < ref.frames; ++f) {
    if (device_at(ref, got, f, point) == ref.at(f, point)) continue;
    const std::size_t i = ref.index(f, point);
    // Frame 0 has no search (peak 0): a difference there is never a tie.
    const bool tie = f > 0 && ref.margin[i] < kTieTolerance * ref.peak[i];
    return {f, tie};
  }
  return {ref.frames, true};
}

Validation check_track(const TrackResult& ref, const DeviceTrack& got) {
  Validation v;
  v.tolerance = 0;
  const std::size_t want = std::size_t(ref.frames) * std::size_t(ref.points) * 2;
  if (got.size() != want) {
    v.ok = false;
    v.max_rel_err = INFINITY;
    v.where = "heartwall: " + std::to_string(got.size()) + " track values, want " +
              std::to_string(want) + " (" + std::to_string(ref.frames) + " frames x " +
              std::to_string(ref.points) + " points x 2)";
    return v;
  }
  v.checked = std::size_t(ref.frames) * std::size_t(ref.points);
  std::string ties;
  for (int p = 0; p < ref.points; ++p) {
    const PointCheck c = check_point(ref, got, p);
    if (c.first_difference == ref.frames) continue;
    const Point g = device_at(ref, got, c.first_difference, p);
    const Point r = ref.at(c.first_difference, p);
    const std::size_t i = ref.index(c.first_difference, p);
    const std::string at =
        "point " + std::to_string(p) + ", frame " + std::to_string(c.first_difference) + ": got " +
        describe(g) + ", want " + describe(r) + " (the peak leads by " +
        short_real(ref.peak[i] > 0 ? ref.margin[i] / ref.peak[i] : 0.0) + " of it";
    if (c.allowed) {
      ties += (ties.empty() ? "" : "; ") + at + ", a near tie: not compared after it)";
      continue;
    }
    const double err = std::max(std::abs(g.row - r.row), std::abs(g.col - r.col));
    if (err > v.max_rel_err || v.ok) {
      v.max_rel_err = std::max(v.max_rel_err, err);
      v.where = at + "; a tie needs less than " + short_real(kTieTolerance) + ")";
    }
    v.ok = false;
  }
  if (v.ok) v.where = ties;
  return v;
}

Validation check_correlations(const TrackResult& ref, const DeviceTrack& got,
                              const DeviceMaps& maps) {
  constexpr int side = 2 * kCorrRadius + 1;
  const std::size_t map_elems = std::size_t(side) * side;
  Validation v;
  v.tolerance = kTieTolerance;
  if (maps.size() != map_elems * std::size_t(ref.points) ||
      ref.last_box.size() != std::size_t(ref.points)) {
    v.ok = false;
    v.max_rel_err = INFINITY;
    v.where = "heartwall: " + std::to_string(maps.size()) + " correlation values, want " +
              std::to_string(map_elems * std::size_t(ref.points));
    return v;
  }
  const int last = ref.frames - 1;
  for (int p = 0; p < ref.points; ++p) {
    if (check_point(ref, got, p).first_difference < ref.frames) continue;  // stopped at a tie
    const double peak = ref.peak[ref.index(last, p)];
    const double scale = peak > 0 ? peak : 1.0;
    for (const BoxValue& b : ref.last_box[std::size_t(p)]) {
      const std::size_t e = std::size_t(p) * map_elems + std::size_t(b.dc + kCorrRadius) * side +
                            (b.dr + kCorrRadius);
      const double dev = maps[e];
      double err = std::fabs(dev - b.ncc) / scale;
      if (std::isnan(dev) && std::isnan(b.ncc)) err = 0;
      if (std::isnan(err)) err = INFINITY;
      ++v.checked;
      if (err <= v.max_rel_err && !v.where.empty()) continue;
      v.max_rel_err = err;
      char buf[192];
      std::snprintf(buf, sizeof buf,
                    "point %d, frame %d, displacement (%d, %d): correlation %.7g, want %.7g "
                    "(peak %.7g)",
                    p, last, b.dr, b.dc, dev, b.ncc, peak);
      v.where = buf;
    }
  }
  v.ok = v.max_rel_err <= v.tolerance;
  return v;
}

Point final_position(const TrackResult& ref, int point) { return ref.at(ref.frames - 1, point); }

Point final_anchor(const TrackResult& ref, int point) {
  const int last = ref.frames - 1;
  if (updates_template(last)) return ref.at(last, point);
  const std::size_t i = ref.index(last, point);
  return {ref.anchor_row[i], ref.anchor_col[i]};
}

}  // namespace gpucmp::heartwall
