#include "trapezoid.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "../../errors.h"
#include "../../local_rows.h"
#include "../../split_rows.h"
#include "../../workload_registry.h"

namespace gpucmp::trapezoid {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base", LocalShape{}, Part{}}};
  return v;
}

Runners& runners() {
  static Runners table("trapezoid", variants());
  return table;
}

double integrand(double x) { return 4.0 / (1.0 + x * x); }

double item_integral(std::size_t g, int steps, double h) {
  const double first = double(g) * steps;
  double sum = 0.5 * (integrand(first * h) + integrand((first + steps) * h));
  for (int s = 1; s < steps; ++s) sum += integrand((first + s) * h);
  return sum * h;
}

float item_sum_float(unsigned g, float h) {
  // Mirrors the kernels (cuda/worksize/trapezoid.cu, opencl/worksize/trapezoid.cl).
  const auto f = [](float x) { return 4.0f / (1.0f + x * x); };
  const unsigned first = g * unsigned(kSteps);
  float sum = 0.5f * (f(float(first) * h) + f(float(first + unsigned(kSteps)) * h));
  for (unsigned s = 1; s < unsigned(kSteps); ++s) sum += f(float(first + s) * h);
  return sum * h;
}

float group_sum(const std::vector<float>& mine) {
  const auto size = unsigned(mine.size());
  const auto max = unsigned(kMaxLocal);
  if (size == 0) return 0.0f;
  std::vector<float> sums(mine.begin(), mine.begin() + std::min(size, max));
  for (unsigned base = max; base < size; base += max)
    for (unsigned lid = base; lid < size && lid < base + max; ++lid) sums[lid - base] += mine[lid];
  const unsigned live = std::min(size, max);
  unsigned stride = 1;
  while (2 * stride < live) stride *= 2;
  for (; stride > 0; stride >>= 1)
    for (unsigned lid = 0; lid < stride; ++lid)
      if (lid + stride < live) sums[lid] += sums[lid + stride];
  return sums[0];
}

Problem make_problem(std::size_t items) {
  Problem p;
  p.items = items;
  const double h = 1.0 / (double(items) * kSteps);  // a power of two: exact in float
  p.h = float(h);
  p.item_ref.resize(items);
  for (std::size_t g = 0; g < items; ++g) {
    p.item_ref[g] = item_integral(g, kSteps, h);
    p.ref_sum += p.item_ref[g];
  }
  p.partials.assign(items, NAN);
  return p;
}

std::size_t group_size_of(const std::vector<float>& partials) {
  for (std::size_t j = 1; j < partials.size(); ++j)
    if (partials[j] != 0.0f) return j;  // NaN too: not a zero
  return partials.size();
}

namespace {

constexpr double kPi = 3.14159265358979323846;

// The reference of every entry for groups of `group` items (the last one
// shorter when `group` does not divide items: then the layout is wrong
// anyway), and each entry's group reference, the scale of its error.
struct EntryRefs {
  std::vector<double> want, scale;
};

EntryRefs entry_refs(const Problem& p, std::size_t group) {
  EntryRefs r;
  r.want.assign(p.items, 0.0);
  r.scale.assign(p.items, 0.0);
  for (std::size_t first = 0; first < p.items; first += group) {
    const std::size_t end = std::min(p.items, first + group);
    double sum = 0;
    for (std::size_t g = first; g < end; ++g) sum += p.item_ref[g];
    r.want[first] = sum;
    std::fill(r.scale.begin() + long(first), r.scale.begin() + long(end), sum);
  }
  return r;
}

}  // namespace

Validation validate(const Problem& p) {
  const std::size_t group = group_size_of(p.partials);
  const EntryRefs refs = entry_refs(p, group);
  double total = 0;
  for (float x : p.partials) total += x;
  // Entries 0..items-1: the partials; entry `items`: their sum.
  Validation v = check_elements(
      p.items + 1, kTolerance,
      [&](std::size_t j) {
        if (j == p.items) return std::fabs(total - p.ref_sum) / p.ref_sum;
        return std::fabs(double(p.partials[j]) - refs.want[j]) / refs.scale[j];
      },
      [&](std::size_t j) {
        char buf[128];
        if (j == p.items)
          std::snprintf(buf, sizeof buf, "sum of partials: got %.12g, want %.12g", total,
                        p.ref_sum);
        else
          std::snprintf(buf, sizeof buf, "partials[%zu] (groups of %zu): got %.9g, want %.9g", j,
                        group, double(p.partials[j]), refs.want[j]);
        return std::string(buf);
      });
  char buf[96];
  std::snprintf(buf, sizeof buf, "; sum - pi = %.3g (reference - pi = %.3g)", total - kPi,
                p.ref_sum - kPi);
  v.where += buf;
  return v;
}

double counted_flops(std::size_t items) { return double(kFlopsPerStep) * kSteps * double(items); }

std::vector<std::size_t> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {std::size_t(1) << 14};
  return {std::size_t(1) << 18};
}

GlobalSize global_size(std::size_t items) {
  return GlobalSize{1, static_cast<long long>(items), 1};
}

Rect items_rect(const Problem& p, const Part& part) {
  return part_rect(part, static_cast<long long>(p.items), 1);
}

std::vector<PartTransfer> part_io(Problem& p, const Part& part) {
  return {{host_array(p.partials, static_cast<long long>(p.items)), items_rect(p, part), true}};
}

namespace {

class Trapezoid : public Workload {
 public:
  std::string name() const override { return "trapezoid"; }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--trapezoid-items",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            sizes_.push_back(std::size_t(
                parse_power_of_two(text, "--trapezoid-items", kMinLog2Items, kMaxLog2Items)));
        },
        "trapezoid work-items, 64 steps each (comma-separated powers of two in 1024..16777216), "
        "overriding --size")
        ->type_name("N");
    local_.add_to(app);
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<std::size_t> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    for (std::size_t items : sizes) {
      const GlobalSize global = global_size(items);
      const std::function<Problem&()> problem = [this, items]() -> Problem& {
        return problems_.get(items, [items] { return make_problem(items); });
      };
      const auto describe = [items](Measurement& m, Problem& p, const DeviceInfo& dev) {
        m.unit = RateUnit::GFLOPs;
        m.work_per_launch = counted_flops(items);
        m.roofline_flop = m.work_per_launch;
        m.roofline_bytes =
            sizeof(float) * double(p.partials.size());  // partials written, nothing read
        m.peak = dev.fp32_peak_gflops;
        m.clear_output = [&p] { std::fill(p.partials.begin(), p.partials.end(), NAN); };
        m.validate = [&p] { return validate(p); };
      };
      const std::vector<Param> params{{"items", std::to_string(items)}};
      register_local_rows<Problem, Variant>(runners(), params, global, local_, opts, apis, problem,
                                            describe);
      register_split_rows<Problem, Variant>(runners(), params, global, local_, opts, apis, problem,
                                            describe, part_io, kSplitLaunches);
    }
  }

 private:
  std::vector<std::size_t> sizes_;  // empty: not given (the preset's)
  LocalOption local_{"trapezoid", 1, "the items"};
  LastProblem<std::size_t, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Trapezoid>(); }

}  // namespace gpucmp::trapezoid

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(trapezoid, 110, gpucmp::trapezoid::make_workload);
