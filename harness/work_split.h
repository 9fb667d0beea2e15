// Splitting one kernel's work between devices (after
// Takemoto et al., IPSJ 2015): how much of the work each device gets under
// each rule, and the contiguous block of rows (or columns) each one runs.
// API-neutral and device-free: the rules take what the devices report (PE
// counts) or what a probe measured (throughputs); the runners do the rest.
#pragma once
#include <string>
#include <vector>

namespace gpucmp {

// How the work is shared: equally; in proportion to processing elements
// (pe_ratio); the study's k model (study_k); in proportion to each device's
// measured throughput on a short probe, transfers included (calibrated).
enum class SplitRule { equal, pe_ratio, study_k, calibrated };

std::string to_string(SplitRule rule);
// "equal", "pe", "study-k", "calibrated"; throws UsageError naming `what`.
SplitRule parse_split_rule(const std::string& text, const std::string& what);

// The study's kernel classes by operation count: heavy above 8e11, light
// below 4e8, medium between; and their k: 0.25, 1.25, 0.75.
double study_k(double ops);

// Fractions of the work (summing to 1), one per device, in device order.
// pe: processing elements of each device (pe_ratio, study_k); throughput:
// measured work per second of each device (calibrated); ops: the kernel's
// operation count (study_k). The study's rule is stated for two devices:
// the smaller one gets pe_small / (pe_small + pe_large) x k of the work, and
// both get half when their PE ratio is closer than 2:3. Throws
// std::invalid_argument for an empty list, a non-positive PE count or
// throughput, or study_k with other than two devices.
std::vector<double> split_fractions(SplitRule rule, const std::vector<double>& pe,
                                    const std::vector<double>& throughput, double ops);

// Contiguous blocks of `units` (rows or columns) for `fractions`, each a
// whole number of `granule`s (the work-group extent along the split; a block
// may be empty), covering every unit exactly once, in device order: block i
// ends at the running sum of the fractions rounded to granules, so the
// rounding never adds up. Returns each block's first unit and count. Throws
// std::invalid_argument when `units` is not a multiple of `granule`.
struct UnitBlock {
  long long first = 0;
  long long count = 0;
};
std::vector<UnitBlock> split_units(long long units, const std::vector<double>& fractions,
                                   long long granule);

// A device's job time as a line in its share f of the work (0 < f <= 1):
// fixed_s + f x per_share_s; a device given nothing costs nothing.
struct DeviceCost {
  double fixed_s = 0;
  double per_share_s = 0;
};

// The fractions that minimise the slowest device's job time under `costs`:
// for every non-empty set of devices, the times balanced (fixed_i + f_i
// per_share_i = T for each, the f_i summing to 1, so T = (1 + sum fixed_i /
// per_share_i) / sum 1 / per_share_i), kept where every f_i >= 0, the least T
// chosen. With no fixed costs this is the split in proportion to
// throughput; a device whose fixed cost exceeds what it saves is left idle
// (the GPU + CPU pair's light kernels). At most 16 devices; throws
// std::invalid_argument otherwise, for none, or a non-positive per_share_s.
std::vector<double> balanced_fractions(const std::vector<DeviceCost>& costs);

// The dimension the work is cut along: y (blocks of rows, the study's) or x
// (blocks of columns; 1-D kernels have only x).
enum class SplitAxis { x, y };
std::string to_string(SplitAxis axis);

// The part of a kernel's global range one device runs: units [first,
// first + count) along `axis`, everything along the other. count < 0: the
// whole range (a row run on one device).
struct Part {
  SplitAxis axis = SplitAxis::y;
  long long first = 0;
  long long count = -1;
  bool whole() const { return count < 0; }
};

// A rectangle of a row-major 2-D array, in elements: columns [x, x + w),
// rows [y, y + h). 1-D arrays are one row.
struct Rect {
  long long x = 0, y = 0, w = 0, h = 0;
  bool empty() const { return w <= 0 || h <= 0; }
};

// The rectangle of a width x height output grid that `part` covers (the
// whole grid for a whole part).
Rect part_rect(const Part& part, long long width, long long height);

}  // namespace gpucmp
