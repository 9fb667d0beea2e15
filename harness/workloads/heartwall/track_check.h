// The check of a device's tracking against the CPU reference (tracking.h),
// under the rule tracking.h states for the FP32 kernels: positions equal,
// point by point and frame by frame; a point may first differ only at a
// frame where the reference's peak leads the next value in the box by less
// than kTieTolerance of the peak (a near tie, which FP32 rounding may break
// either way), and is not compared after it (each later position depends on
// that one). Anything else is a mismatch: the check fails, naming the point,
// the frame and both positions.
#pragma once
#include <vector>

#include "../../validation.h"
#include "tracking.h"

namespace gpucmp::heartwall {

// A device's positions of ref.frames frames x ref.points points, frame-major,
// each (row, col): [(frame * points + point) * 2 + {0, 1}], as the kernels
// write them.
using DeviceTrack = std::vector<int>;

// Where point `point` may first differ from `ref` in `got`, and whether it
// does: the first frame whose position differs (ref.frames when none), and
// whether that difference is allowed (a near tie).
struct PointCheck {
  int first_difference = 0;
  bool allowed = true;
};
PointCheck check_point(const TrackResult& ref, const DeviceTrack& got, int point);

// Every point (UsageError-free: a size mismatch is a failed check, not an
// exception). The measure is pixels: a point's error is the distance
// (largest of |rows|, |columns|) at its first difference unless that is a
// near tie, 0 otherwise; the tolerance is 0. Validation::where names the
// worst point, or, when every point matched, the points that stopped at a
// near tie (if any).
Validation check_track(const TrackResult& ref, const DeviceTrack& got);

// The device's correlation maps of the last frame, one a point: (2 x
// kCorrRadius + 1)^2 floats, column-major from displacement (-65, -65), as the
// kernels leave them in their scratch.
using DeviceMaps = std::vector<float>;

// The premise of the tie rule, checked: every value of the last frame's box
// (ref.last_box) against the device's map, for each point whose track matched
// to the end. The measure is |device - reference| / that point's peak; the
// tolerance kTieTolerance (FP32's error must stay below the margin the rule
// lets through). A NaN on one side only fails.
Validation check_correlations(const TrackResult& ref, const DeviceTrack& got,
                              const DeviceMaps& maps);

// The positions the reference has for `point` after its last frame: the
// position tracked in the last frame and the anchor the next search would
// use (the last frame's anchor, or its position after an update).
Point final_position(const TrackResult& ref, int point);
Point final_anchor(const TrackResult& ref, int point);

}  // namespace gpucmp::heartwall
