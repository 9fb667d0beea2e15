#include "track_ncc.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "../../errors.h"

namespace gpucmp::heartwall {
namespace {

constexpr int kCumSide = kSearchSide + 1;

void check_inside(const Sequence& seq, int frame, Point centre, int radius, const char* what) {
  if (frame < 0 || frame >= seq.frames || centre.row - radius < 0 ||
      centre.row + radius >= seq.height || centre.col - radius < 0 ||
      centre.col + radius >= seq.width)
    throw UsageError(std::string("heartwall: the ") + what + " around (" +
                     std::to_string(centre.row) + ", " + std::to_string(centre.col) +
                     ") in frame " + std::to_string(frame) + " leaves the sequence");
}

std::size_t at(int y, int x, int side) {
  return std::size_t(y) * std::size_t(side) + std::size_t(x);
}

}  // namespace

Template cut_template(const Sequence& seq, int frame, Point centre) {
  check_inside(seq, frame, centre, kTemplateRadius, "template");
  Template t(static_cast<std::size_t>(kTemplateElems));
  for (int y = 0; y < kTemplateSide; ++y)
    for (int x = 0; x < kTemplateSide; ++x)
      t[at(y, x, kTemplateSide)] =
          seq.at(frame, centre.row - kTemplateRadius + y, centre.col - kTemplateRadius + x);
  return t;
}

TemplateStats template_stats(const Template& templ) {
  double sum = 0;
  double sum_sq = 0;
  for (const double v : templ) {
    sum += v;
    sum_sq += v * v;
  }
  const double n = kTemplateElems;
  const double mean = sum / n;
  const double deviation = std::sqrt(sum_sq / n - mean * mean);
  return {sum, std::sqrt(n - 1) * deviation};
}

SearchArea::SearchArea(const Sequence& seq, int frame, Point anchor)
    : pixels_(std::size_t(kSearchSide) * kSearchSide),
      sum_(std::size_t(kCumSide) * kCumSide, 0.0),
      sum_sq_(std::size_t(kCumSide) * kCumSide, 0.0) {
  check_inside(seq, frame, anchor, kSearchRadius, "search area");
  for (int y = 0; y < kSearchSide; ++y)
    for (int x = 0; x < kSearchSide; ++x)
      pixels_[at(y, x, kSearchSide)] =
          seq.at(frame, anchor.row - kSearchRadius + y, anchor.col - kSearchRadius + x);
  // Pixels are whole numbers up to 255: every sum here is exact in double.
  for (int y = 0; y < kSearchSide; ++y)
    for (int x = 0; x < kSearchSide; ++x) {
      const double v = pixels_[at(y, x, kSearchSide)];
      sum_[at(y + 1, x + 1, kCumSide)] = v + sum_[at(y, x + 1, kCumSide)] +
                                         sum_[at(y + 1, x, kCumSide)] - sum_[at(y, x, kCumSide)];
      sum_sq_[at(y + 1, x + 1, kCumSide)] = v * v + sum_sq_[at(y, x + 1, kCumSide)] +
                                            sum_sq_[at(y + 1, x, kCumSide)] -
                                            sum_sq_[at(y, x, kCumSide)];
    }
}

double SearchArea::box(const std::vector<double>& cumulative, int y0, int x0, int y1, int x1) {
  return cumulative[at(y1, x1, kCumSide)] - cumulative[at(y0, x1, kCumSide)] -
         cumulative[at(y1, x0, kCumSide)] + cumulative[at(y0, x0, kCumSide)];
}

double SearchArea::ncc(const Template& templ, const TemplateStats& stats, int dr, int dc) const {
  // The template's row 0 lies on area row `top`, its column 0 on column
  // `left`; only the overlap counts (the area is zero outside).
  const int top = kSearchRadius + dr - kTemplateRadius;
  const int left = kSearchRadius + dc - kTemplateRadius;
  const int y0 = std::max(top, 0);
  const int y1 = std::min(top + kTemplateSide, kSearchSide);
  const int x0 = std::max(left, 0);
  const int x1 = std::min(left + kTemplateSide, kSearchSide);

  double cross = 0;
  for (int y = y0; y < y1; ++y) {
    const double* area_row = &pixels_[at(y, x0, kSearchSide)];
    const double* templ_row = &templ[at(y - top, x0 - left, kTemplateSide)];
    for (int x = 0; x < x1 - x0; ++x) cross += templ_row[x] * area_row[x];
  }
  const double n = kTemplateElems;
  const double area_sum = box(sum_, y0, x0, y1, x1);
  const double area_sum_sq = box(sum_sq_, y0, x0, y1, x1);
  const double numerator = cross - area_sum * stats.sum / n;
  const double area_denom = std::sqrt(std::max(0.0, area_sum_sq - area_sum * area_sum / n));
  return numerator / (area_denom * stats.denom);
}

}  // namespace gpucmp::heartwall
