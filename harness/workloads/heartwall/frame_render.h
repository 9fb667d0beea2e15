// Draws one frame of HeartWall's generated ultrasound sequence: the two walls
// as bright bands over darker tissue and a dark blood pool, all of it speckled
// (docs/studies/heartwall.md "The input").
//
// A pixel's intensity is reflectivity x speckle x fresh noise x gain, plus a
// small noise floor, clamped to 8 bits:
//  - reflectivity from the pixel's signed distance to each wall along its ray
//    from the centre: a band 6 px wide (quartic profile, 3 px half-width) on
//    each wall, the epicardium the brighter, over a blood pool at 0.05, a
//    myocardium at 0.28 and outer tissue at 0.18 (smooth 4 px steps between);
//  - speckle from SpeckleField where the pixel's tissue was in frame 0
//    (radial_map), so it moves with the walls;
//  - fresh multiplicative noise per pixel and frame (mean 1, sd 0.29).
// The geometry is exact on a grid every kCell pixels and bilinear between:
// near the walls, the distances to them are within 0.25 px of exact and the
// frame-0 position of the tissue within 0.6 px (measured over five frames),
// elsewhere within 0.25 px. Exact per pixel it would take seconds a sequence.
#pragma once
#include <cstdint>

#include "speckle.h"

namespace gpucmp::heartwall {

constexpr int kCell = 8;  // the geometry grid's spacing, in pixels

// Frame `frame` into out[0, kWidth * kHeight): rows top-down, row-major.
void render_frame(int frame, const SpeckleField& speckle, std::uint64_t seed, std::uint8_t* out);

}  // namespace gpucmp::heartwall
