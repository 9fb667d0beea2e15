#include "launch_shape.h"

#include <algorithm>
#include <cctype>

#include "errors.h"
#include "options.h"

namespace gpucmp {

bool operator==(const LocalShape& a, const LocalShape& b) { return a.x == b.x && a.y == b.y; }

std::string to_string(const LocalShape& s, int dims) {
  if (s.by_driver()) return "driver";
  if (dims == 1) return std::to_string(s.x);
  return std::to_string(s.x) + "x" + std::to_string(s.y);
}

namespace {

// Divisors of n not above `cap`, ascending.
std::vector<int> divisors_up_to(long long n, int cap) {
  std::vector<int> out;
  for (int d = 1; d <= cap && d <= n; ++d)
    if (n % d == 0) out.push_back(d);
  return out;
}

int largest_divisor_up_to(long long n, int cap) {
  const std::vector<int> d = divisors_up_to(n, std::max(cap, 1));
  return d.back();  // 1 divides everything
}

}  // namespace

std::vector<LocalShape> candidate_shapes(const GlobalSize& global, const LocalLimits& limits) {
  std::vector<LocalShape> out;
  const int cap_x = std::min(limits.max_x, limits.max_size);
  for (int x : divisors_up_to(global.x, cap_x)) {
    if (global.dims == 1) {
      out.push_back({x, 1});
      continue;
    }
    const int cap_y = std::min(limits.max_y, limits.max_size / x);
    for (int y : divisors_up_to(global.y, cap_y)) out.push_back({x, y});
  }
  return out;
}

void check_local_shape(const LocalShape& s, const GlobalSize& global, const LocalLimits& limits,
                       const std::string& what) {
  if (s.by_driver()) return;
  const std::string shape = to_string(s, global.dims);
  if (s.x < 0 || s.y <= 0) throw UsageError(what + ": local size " + shape + " must be positive");
  if (global.dims == 1 && s.y != 1)
    throw UsageError(what + ": local size " + shape + " is 2-D, the kernel is 1-D");
  if (global.x % s.x != 0)
    throw UsageError(what + ": local size " + shape + " does not divide the global size " +
                     std::to_string(global.x) + " along x");
  if (global.y % s.y != 0)
    throw UsageError(what + ": local size " + shape + " does not divide the global size " +
                     std::to_string(global.y) + " along y");
  if (s.x > limits.max_x)
    throw UsageError(what + ": local size " + shape + " exceeds the device limit of " +
                     std::to_string(limits.max_x) + " work-items along x");
  if (s.y > limits.max_y)
    throw UsageError(what + ": local size " + shape + " exceeds the device limit of " +
                     std::to_string(limits.max_y) + " work-items along y");
  if (s.size() > limits.max_size)
    throw UsageError(what + ": local size " + shape + " (" + std::to_string(s.size()) +
                     " work-items) exceeds the device limit of " + std::to_string(limits.max_size) +
                     " work-items per group");
}

LocalShape study_rule_shape(const GlobalSize& global, const LocalLimits& limits, int lanes_per_cu,
                            bool x_priority) {
  const std::vector<LocalShape> legal = candidate_shapes(global, limits);
  if (global.dims == 1) {
    for (const LocalShape& s : legal)  // ascending
      if (s.x >= lanes_per_cu) return s;
    return legal.back();
  }
  // x * y below 1024 and a multiple of 16; the priority axis largest, then
  // the largest group.
  const LocalShape* best = nullptr;
  for (const LocalShape& s : legal) {
    if (s.size() >= 1024 || s.size() % 16 != 0) continue;
    const int key = x_priority ? s.x : s.y;
    const int best_key = best ? (x_priority ? best->x : best->y) : -1;
    if (!best || key > best_key || (key == best_key && s.size() > best->size())) best = &s;
  }
  if (best) return *best;
  if (x_priority)
    return {largest_divisor_up_to(global.x, std::min(limits.max_x, limits.max_size)), 1};
  return {1, largest_divisor_up_to(global.y, std::min(limits.max_y, limits.max_size))};
}

LocalShape shape_for_block_size(int block, const GlobalSize& global, const LocalLimits& limits) {
  const int cap = std::max(1, std::min(block, limits.max_size));
  const int x = largest_divisor_up_to(global.x, std::min(cap, limits.max_x));
  if (global.dims == 1) return {x, 1};
  return {x, largest_divisor_up_to(global.y, std::min(cap / x, limits.max_y))};
}

std::string to_string(const LocalSpec& spec, int dims) {
  switch (spec.rule) {
    case LocalRule::fixed:
      return to_string(spec.shape, dims);
    case LocalRule::driver:
      return "driver";
    case LocalRule::query:
      return "query";
    case LocalRule::study:
      return "study";
    case LocalRule::study_x:
      return "study-x";
    case LocalRule::study_y:
      return "study-y";
    case LocalRule::tuner:
      return "tuner";
    case LocalRule::sweep:
      return "sweep";
  }
  return "?";
}

namespace {

// One extent of a fixed shape: a whole number in 1..2^20.
int parse_extent(const std::string& text, const std::string& option, const std::string& item) {
  try {
    return int(parse_int(text, option, {1, 1 << 20}));
  } catch (const UsageError&) {
    throw UsageError(option + " " + item + ": each extent must be a whole number in 1..1048576");
  }
}

LocalSpec parse_one(const std::string& item, const std::string& option, int dims) {
  const std::string what = option + " " + item;
  if (item == "driver") return {LocalRule::driver, {}};
  if (item == "query") return {LocalRule::query, {}};
  if (item == "tuner") return {LocalRule::tuner, {}};
  if (item == "sweep") return {LocalRule::sweep, {}};
  if (item == "study" || item == "study-x" || item == "study-y") {
    if (dims == 1 && item != "study")
      throw UsageError(what + ": the kernel is 1-D: its rule is 'study'");
    if (dims == 2 && item == "study")
      throw UsageError(what + ": the kernel is 2-D: say 'study-x' or 'study-y'");
    return {item == "study" ? LocalRule::study
                            : (item == "study-x" ? LocalRule::study_x : LocalRule::study_y),
            {}};
  }
  const std::size_t cross = item.find('x');
  if (dims == 1) {
    if (cross != std::string::npos)
      throw UsageError(what + ": the kernel is 1-D: give one local size, not XxY");
    return {LocalRule::fixed, {parse_extent(item, option, item), 1}};
  }
  if (cross == std::string::npos)
    throw UsageError(what +
                     ": the kernel is 2-D: give XxY (e.g. 32x8), driver, study-x, "
                     "study-y, tuner or sweep");
  return {LocalRule::fixed,
          {parse_extent(item.substr(0, cross), option, item),
           parse_extent(item.substr(cross + 1), option, item)}};
}

bool same_row(const LocalSpec& a, const LocalSpec& b) {
  return a.rule == b.rule && (a.rule != LocalRule::fixed || a.shape == b.shape);
}

}  // namespace

std::vector<LocalSpec> parse_local_specs(const std::vector<std::string>& items,
                                         const std::string& option, int dims) {
  std::vector<LocalSpec> out;
  out.reserve(items.size());
  for (const std::string& item : items) out.push_back(parse_one(item, option, dims));
  if (out.empty()) throw UsageError(option + ": empty list");
  return out;
}

std::vector<LocalSpec> expand_local_specs(const std::vector<LocalSpec>& specs,
                                          const GlobalSize& global, const std::string& what,
                                          const LocalLimits& limits) {
  std::vector<LocalSpec> out;
  const auto add = [&out](const LocalSpec& s) {
    for (const LocalSpec& have : out)
      if (same_row(have, s)) return;
    out.push_back(s);
  };
  const LocalLimits unlimited{1 << 30, 1 << 30, 1 << 30};
  for (const LocalSpec& spec : specs) {
    if (spec.rule == LocalRule::sweep) {
      for (const LocalShape& s : candidate_shapes(global, limits))
        add({LocalRule::fixed, s, /*from_sweep=*/true});
      continue;
    }
    if (spec.rule == LocalRule::fixed) check_local_shape(spec.shape, global, unlimited, what);
    add(spec);
  }
  return out;
}

}  // namespace gpucmp
