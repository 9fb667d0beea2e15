#include "sort.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

#include "../../errors.h"
#include "../../local_rows.h"
#include "../../rng.h"
#include "../../workload_registry.h"

namespace gpucmp::sort {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"bitonic", LocalShape{}}};
  return v;
}

Runners& runners() {
  static Runners table("sort", variants());
  return table;
}

Problem make_problem(std::size_t n) {
  Problem p;
  p.n = n;
  p.input.resize(n);
  p.output.assign(n, NAN);
  Rng rng(0x736f7274ULL ^ n);
  for (auto& x : p.input) x = rng.uniform(-1, 1);
  p.sorted = p.input;
  std::sort(p.sorted.begin(), p.sorted.end());
  return p;
}

namespace {
// Bit-for-bit equality (a compare-exchange moves values, it never changes one):
// -0 and +0 differ, as do two NaNs with different payloads.
bool same_bits(float a, float b) {
  std::uint32_t x = 0, y = 0;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}
}  // namespace

Validation validate(const Problem& p) {
  return check_elements(
      p.n, 0.0,
      [&](std::size_t i) {
        if (same_bits(p.output[i], p.sorted[i])) return 0.0;
        const double want = p.sorted[i];
        const double rel = std::fabs(double(p.output[i]) - want) / std::max(1.0, std::fabs(want));
        return std::max(rel, std::numeric_limits<double>::min());  // NaN stays NaN: a failure
      },
      [&](std::size_t i) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "out[%zu]: got %.9g, want %.9g", i, double(p.output[i]),
                      double(p.sorted[i]));
        return std::string(buf);
      });
}

int passes(std::size_t n) {
  int log2n = 0;
  while ((std::size_t(1) << log2n) < n) ++log2n;
  return log2n * (log2n + 1) / 2;
}

double counted_bytes(std::size_t n) { return (passes(n) + 1) * 2.0 * sizeof(float) * double(n); }

void compare_exchange(float* a, unsigned t, unsigned k, unsigned j) {
  // Mirrors the kernels (cuda/worksize/sort.cu, opencl/worksize/sort.cl).
  const unsigned i = 2 * t - (t & (j - 1));  // t with a 0 bit inserted at j's position
  const unsigned l = i + j;
  const float x = a[i], y = a[l];
  const bool up = (i & k) == 0;
  const bool swap = up ? x > y : x < y;
  a[i] = swap ? y : x;
  a[l] = swap ? x : y;
}

void bitonic_sort_cpu(std::vector<float>& a) {
  const auto n = unsigned(a.size());
  for (unsigned k = 2; k <= n; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1)
      for (unsigned t = 0; t < n / 2; ++t) compare_exchange(a.data(), t, k, j);
}

std::vector<std::size_t> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {std::size_t(1) << 14};
  return {std::size_t(1) << 18};
}

GlobalSize global_size(std::size_t n) { return GlobalSize{1, static_cast<long long>(n / 2), 1}; }

namespace {

class Sort : public Workload {
 public:
  std::string name() const override { return "sort"; }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--sort-n",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            sizes_.push_back(
                std::size_t(parse_power_of_two(text, "--sort-n", kMinLog2N, kMaxLog2N)));
        },
        "sort elements n (comma-separated powers of two in 1024..67108864), overriding --size")
        ->type_name("N");
    local_.add_to(app);
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<std::size_t> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    for (std::size_t n : sizes) {
      const GlobalSize global = global_size(n);
      const std::function<Problem&()> problem = [this, n]() -> Problem& {
        return problems_.get(n, [n] { return make_problem(n); });
      };
      const auto describe = [n](Measurement& m, Problem& p, const DeviceInfo& dev) {
        m.unit = RateUnit::GBps;
        m.work_per_launch = counted_bytes(n);
        m.roofline_bytes = counted_bytes(n);    // no flop: compares and moves
        m.commands_per_launch = 1 + passes(n);  // the input restored, then each pass
        m.peak = dev.dram_peak_gbps;
        m.clear_output = [&p] { std::fill(p.output.begin(), p.output.end(), NAN); };
        m.validate = [&p] { return validate(p); };
      };
      register_local_rows<Problem, Variant>(runners(), {{"n", std::to_string(n)}}, global, local_,
                                            opts, apis, problem, describe);
    }
  }

 private:
  std::vector<std::size_t> sizes_;  // empty: not given (the preset's)
  LocalOption local_{"sort", 1, "n/2"};
  LastProblem<std::size_t, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Sort>(); }

}  // namespace gpucmp::sort

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(sort, 100, gpucmp::sort::make_workload);
