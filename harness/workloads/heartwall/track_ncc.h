// HeartWall's correlation, in double precision on the CPU: one point's
// template against its search area, normalized as Rodinia 3.1's heartwall
// does it (cuda/heartwall/kernel.cu; docs/studies/heartwall.md "The tracking
// (CPU reference)"). tracking.h moves the points with it.
//
// Positions are pixels counted from 0, rows top-down: Rodinia's (row, col),
// counted from 1, less one each.
#pragma once
#include <vector>

#include "sequence.h"

namespace gpucmp::heartwall {

constexpr int kTemplateRadius = 25;                            // Rodinia's tSize
constexpr int kSearchRadius = 40;                              // sSize
constexpr int kTemplateSide = 2 * kTemplateRadius + 1;         // 51 (in_rows)
constexpr int kTemplateElems = kTemplateSide * kTemplateSide;  // 2601 (in_elem)
constexpr int kSearchSide = 2 * kSearchRadius + 1;             // 81 (in2_rows)
// Rodinia correlates the template with the area at every overlap, a
// (51 + 81 - 1)^2 = 131 x 131 map: the template's centre at -65 to +65
// rows and columns from the area's (its anchor).
constexpr int kCorrRadius = kTemplateRadius + kSearchRadius;  // 65

// A template, kTemplateSide^2 values row-major, its centre at [25][25].
using Template = std::vector<double>;

// The 51 x 51 patch of `frame` centred on `centre` (Rodinia's "GENERATE
// TEMPLATE" and its update's patch). UsageError if it leaves the frame.
Template cut_template(const Sequence& seq, int frame, Point centre);

// What the normalization needs of a template: its sum and Rodinia's
// denomT = sqrt(n - 1) x its standard deviation (over n, not n - 1).
struct TemplateStats {
  double sum = 0;
  double denom = 0;
};
TemplateStats template_stats(const Template& templ);

// The search area around `anchor` in `frame` (81 x 81, zero outside: Rodinia
// pads it with zeros) and the cumulative sums of its pixels and their squares,
// which give the area under any placement of the template in O(1), as
// Rodinia's two passes of cumulative sums (vertical, then horizontal) do.
class SearchArea {
 public:
  // UsageError if the area leaves the frame (Rodinia reads outside it).
  SearchArea(const Sequence& seq, int frame, Point anchor);

  // The correlation with the template centred `dr` rows and `dc` columns
  // from the anchor (|dr|, |dc| <= kCorrRadius): with S the area under it
  // (zeros outside the area) and n = 2601, Rodinia's
  //   (sum(T S) - sum(S) sum(T) / n)
  //     / (sqrt(max(0, sum(S^2) - sum(S)^2 / n)) x denomT),
  // which is sqrt(n / (n - 1)) = 1.000192 for a perfect match.
  double ncc(const Template& templ, const TemplateStats& stats, int dr, int dc) const;

 private:
  // Sum over area rows [y0, y1) and columns [x0, x1) of a cumulative table.
  static double box(const std::vector<double>& cumulative, int y0, int x0, int y1, int x1);

  std::vector<double> pixels_;  // kSearchSide^2, row-major
  // (kSearchSide + 1)^2: [y][x] is the sum over rows < y and columns < x.
  std::vector<double> sum_;
  std::vector<double> sum_sq_;
};

}  // namespace gpucmp::heartwall
