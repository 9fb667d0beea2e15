#include "sequence.h"

#include <string>

#include "../../errors.h"
#include "../../parallel_for.h"
#include "frame_render.h"
#include "speckle.h"

namespace gpucmp::heartwall {

Point Sequence::point(int i) const {
  const auto n = int(endo.size());
  return i < n ? endo[std::size_t(i)] : epi[std::size_t(i - n)];
}

PointF Sequence::truth(int frame, int i) const {
  return truths[std::size_t(frame) * std::size_t(points()) + std::size_t(i)];
}

const std::uint8_t* Sequence::frame(int f) const {
  return &pixels[std::size_t(f) * std::size_t(width) * std::size_t(height)];
}

std::uint8_t Sequence::at(int f, int row, int col) const {
  return frame(f)[std::size_t(row) * std::size_t(width) + std::size_t(col)];
}

Sequence make_sequence(int frames, std::uint64_t seed) {
  if (frames < 1)
    throw UsageError("heartwall: a sequence needs at least 1 frame, not " + std::to_string(frames));
  Sequence s;
  s.frames = frames;
  s.seed = seed;
  s.endo = endo_sample_points();
  s.epi = epi_sample_points();
  for (int f = 0; f < frames; ++f)
    for (int i = 0; i < s.points(); ++i) s.truths.push_back(tissue_position(s.point(i), f));

  const SpeckleField speckle(seed);
  const std::size_t frame_size = std::size_t(kWidth) * kHeight;
  s.pixels.resize(std::size_t(frames) * frame_size);
  // Each frame depends on nothing but its number: any split over threads
  // gives the same bytes.
  parallel_for(std::size_t(frames), 1, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t f = begin; f < end; ++f)
      render_frame(int(f), speckle, seed, &s.pixels[f * frame_size]);
  });
  return s;
}

}  // namespace gpucmp::heartwall
