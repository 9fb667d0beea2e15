#include "heartwall.h"

#include <gpucmp_layouts.h>

#include <algorithm>
#include <cstdio>

#include "../../errors.h"
#include "../../parallel_for.h"
#include "track_check.h"

namespace gpucmp::heartwall {

// The kernels index the state through the generated accessors; the host
// converts it with kStateWords: the two must agree.
static_assert(HWPOINT_WORDS == kStateWords, "records.json's hwpoint is not kStateWords long");
static_assert(HWPOINT_TEMPL == 4, "hwpoint's template must follow its four positions");

std::size_t frame_elems() { return std::size_t(kWidth) * std::size_t(kHeight); }

Problem make_problem(int frames) {
  if (frames < kMinFrames || frames > kRodiniaFrames)
    throw UsageError("heartwall: " + std::to_string(frames) + " frames: must be " +
                     std::to_string(kMinFrames) + ".." + std::to_string(kRodiniaFrames));
  const Sequence seq = make_sequence(frames, kSeed);
  Problem p;
  p.frames = frames;
  p.points = seq.points();
  p.pixels.resize(seq.pixels.size());
  parallel_for(seq.pixels.size(), std::size_t(1) << 16,
               [&](std::size_t begin, std::size_t end, unsigned) {
                 for (std::size_t i = begin; i < end; ++i) p.pixels[i] = float(seq.pixels[i]);
               });
  for (int i = 0; i < p.points; ++i) {
    p.start.push_back(seq.point(i).row);
    p.start.push_back(seq.point(i).col);
  }
  p.ref = track(seq, frames);
  p.track.assign(std::size_t(frames) * std::size_t(p.points) * 2, -1);
  p.state.assign(std::size_t(p.points) * kStateWords, NAN);
  p.corr.assign(std::size_t(p.points) * kCorrElems, NAN);
  return p;
}

namespace {

// The final state's positions (AoS: row, col, anchor row, anchor col) against
// the reference's, for the points whose track matched to the end.
Validation check_state(const Problem& p) {
  Validation v;
  v.tolerance = 0;
  for (int i = 0; i < p.points; ++i) {
    if (check_point(p.ref, p.track, i).first_difference < p.frames) continue;  // stopped at a tie
    const float* s = &p.state[std::size_t(i) * kStateWords];
    const Point want[2] = {final_position(p.ref, i), final_anchor(p.ref, i)};
    for (int k = 0; k < 2; ++k) {
      ++v.checked;
      const float row = s[std::ptrdiff_t(2) * k], col = s[std::ptrdiff_t(2) * k + 1];
      if (row == float(want[k].row) && col == float(want[k].col)) continue;
      char buf[160];
      std::snprintf(buf, sizeof buf, "point %d's final state: %s (%g, %g), want (%d, %d)", i,
                    k == 0 ? "position" : "anchor", double(row), double(col), want[k].row,
                    want[k].col);
      v.ok = false;
      v.max_rel_err = INFINITY;
      if (v.where.empty()) v.where = buf;
    }
  }
  return v;
}

}  // namespace

Validation validate(const Problem& p) {
  Validation track = check_track(p.ref, p.track);
  if (!track.ok) return track;
  Validation state = check_state(p);
  if (!state.ok) return state;
  Validation corr = check_correlations(p.ref, p.track, p.corr);
  if (corr.ok && !track.where.empty()) corr.where += "; " + track.where;  // the near ties
  return corr;
}

double convolution_macs(const Problem& p) {
  // Along one axis the overlaps of 51 template and 81 area pixels at the 131
  // placements sum to 51 x 81; over both axes, (51 x 81)^2 per point.
  const double axis = double(kTemplateSide) * kSearchSide;
  return axis * axis * p.points * (p.frames - 1);
}

std::vector<int> preset_frames(SizePreset size) {
  if (size == SizePreset::quick) return {2};
  return {20, 40, 60, 80, 100};
}

}  // namespace gpucmp::heartwall
