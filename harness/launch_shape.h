// Launch geometry as a benchmark parameter (after Takemoto et al.,
// IPSJ 2015): the work-group (OpenCL) / block (CUDA) shape of a kernel whose
// geometry is free, which shapes are legal, and the rules that pick one.
// Everything here is API-neutral: the APIs give their limits through
// DeviceInfo (device_info.h) and resolve "driver" themselves.
#pragma once
#include <string>
#include <vector>

namespace gpucmp {

// A work-group / block shape in work-items (x fastest). x == 0 means "the API
// chooses": OpenCL gets a NULL local size, CUDA the block size of
// cudaOccupancyMaxPotentialBlockSize turned into a shape (shape_for_block_size).
struct LocalShape {
  int x = 0;
  int y = 1;
  bool by_driver() const { return x == 0; }
  long long size() const { return static_cast<long long>(x) * y; }
};
bool operator==(const LocalShape& a, const LocalShape& b);
inline bool operator!=(const LocalShape& a, const LocalShape& b) { return !(a == b); }

// The global NDRange in work-items. dims 1: y is 1.
struct GlobalSize {
  int dims = 1;
  long long x = 1;
  long long y = 1;
};

// What a device allows per work-group: in all and along x and y.
// (CL_DEVICE_MAX_WORK_GROUP_SIZE / _ITEM_SIZES; maxThreadsPerBlock / maxThreadsDim.)
struct LocalLimits {
  int max_size = 1024;
  int max_x = 1024;
  int max_y = 1024;
};

// "256" (1-D), "32x8" (2-D), "driver".
std::string to_string(const LocalShape& s, int dims);

// Every legal shape, ordered by (x, y). 1-D: every divisor of global.x up to
// the limits. 2-D: every (x, y) with x dividing global.x, y dividing global.y,
// x * y within max_size, x and y within their own limits (the study's "all
// divisor pairs within the device limit").
std::vector<LocalShape> candidate_shapes(const GlobalSize& global, const LocalLimits& limits);

// Throws UsageError naming `what` and the broken rule when `s` is not legal
// for `global` on a device with `limits`: zero or negative, a dimension the
// global size lacks, not dividing the global size, over the per-dimension or
// the total limit ("... exceeds the device limit of 1024 work-items per
// group"). A driver shape is always legal.
void check_local_shape(const LocalShape& s, const GlobalSize& global, const LocalLimits& limits,
                       const std::string& what);

// The study's local-size rule. 1-D: the smallest legal local size >= the
// processing elements of one compute unit (`lanes_per_cu`, FP32 lanes per SM
// on NVIDIA); the largest legal one when none is. 2-D: among legal (x, y)
// with x * y < 1024 (and within the limit) and a multiple of 16, the largest
// x (x_priority) or the largest y, then the largest x * y; when none
// qualifies, (max, 1) or (1, max) with max the largest legal extent.
LocalShape study_rule_shape(const GlobalSize& global, const LocalLimits& limits, int lanes_per_cu,
                            bool x_priority);

// A block size (CUDA's occupancy API answer) as a shape: 1-D the largest
// divisor of global.x not above `block`; 2-D x that, then y the largest
// divisor of global.y not above block / x.
LocalShape shape_for_block_size(int block, const GlobalSize& global, const LocalLimits& limits);

// How a row's shape is chosen: a given shape; the API's own choice (driver:
// OpenCL's NULL local size, CUDA's occupancy API, which is CUDA's only
// choice); the API's suggested size for the kernel as a shape (query: CUDA's
// occupancy API, OpenCL's kernel work-group size and preferred multiple); the
// study's rule (1-D; 2-D x- or y-priority); gpucmp's tuner (local_choice.h);
// or every legal shape (sweep; expanded per size by expand_local_specs).
enum class LocalRule { fixed, driver, query, study, study_x, study_y, tuner, sweep };

struct LocalSpec {
  LocalRule rule = LocalRule::fixed;
  LocalShape shape;         // rule fixed only
  bool from_sweep = false;  // a fixed shape a sweep made: over a device's limit it is skipped
};

// The benchmark parameter's value: "256", "32x8", "driver", "query",
// "study", "study-x", "study-y", "tuner" ("sweep" never names a row).
std::string to_string(const LocalSpec& spec, int dims);

// Parses the items of a --<workload>-local option for a kernel of `dims`
// dimensions: N (1-D), XxY (2-D), driver, query, study (1-D), study-x and
// study-y (2-D), tuner, sweep. Throws UsageError naming `option` and the item for
// anything else (a 2-D shape for a 1-D kernel, "study-x" for a 1-D one, 0, ...).
std::vector<LocalSpec> parse_local_specs(const std::vector<std::string>& items,
                                         const std::string& option, int dims);

// The rows of one problem size: sweep becomes every candidate_shapes() entry
// at `limits` (NVIDIA's 1024 unless given; a device with a lower limit skips
// the shapes above it), duplicates are dropped (first kept), and each fixed
// shape is checked against `global` (check_local_shape without the device
// limit, which is checked when the row runs). Throws UsageError naming `what`.
std::vector<LocalSpec> expand_local_specs(const std::vector<LocalSpec>& specs,
                                          const GlobalSize& global, const std::string& what,
                                          const LocalLimits& limits = {});

}  // namespace gpucmp
