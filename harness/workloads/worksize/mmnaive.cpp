#include "mmnaive.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "../../local_rows.h"
#include "../../rng.h"
#include "../../split_rows.h"
#include "../../workload_registry.h"

namespace gpucmp::mmnaive {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base", LocalShape{}, Part{}}};
  return v;
}

Runners& runners() {
  static Runners table("mmnaive", variants());
  return table;
}

Problem make_problem(int n) {
  Problem p;
  p.n = n;
  const std::size_t count = std::size_t(n) * n;
  p.a.resize(count);
  p.b.resize(count);
  p.c.assign(count, NAN);
  Rng rng(0x6d6d6e616976ULL ^ std::uint64_t(n));
  for (auto& x : p.a) x = rng.uniform(-1, 1);
  for (auto& x : p.b) x = rng.uniform(-1, 1);
  if (n > kFullCheckMaxN) {
    Rng pick(0x73616d706c65ULL ^ std::uint64_t(n));
    p.checked.resize(kSampledEntries);
    for (auto& e : p.checked) e = pick.below(count);
  }
  compute_reference(p);
  return p;
}

void compute_reference(Problem& p) {
  const auto n = std::size_t(p.n);
  if (p.checked.empty()) {
    // Row by row with k outside j: B is read along its rows, so the full
    // reference of n = 2048 takes seconds, not minutes.
    p.ref.assign(n * n, 0.0);
    p.abs_sum.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      double* ref = &p.ref[i * n];
      double* abs_sum = &p.abs_sum[i * n];
      for (std::size_t k = 0; k < n; ++k) {
        const double aik = p.a[i * n + k];
        const float* brow = &p.b[k * n];
        for (std::size_t j = 0; j < n; ++j) {
          const double prod = aik * double(brow[j]);
          ref[j] += prod;
          abs_sum[j] += std::fabs(prod);
        }
      }
    }
    return;
  }
  p.ref.assign(p.checked.size(), 0.0);
  p.abs_sum.assign(p.checked.size(), 0.0);
  for (std::size_t e = 0; e < p.checked.size(); ++e) {
    const std::size_t i = p.checked[e] / n, j = p.checked[e] % n;
    for (std::size_t k = 0; k < n; ++k) {
      const double prod = double(p.a[i * n + k]) * double(p.b[k * n + j]);
      p.ref[e] += prod;
      p.abs_sum[e] += std::fabs(prod);
    }
  }
}

double tolerance(int n) {
  const double nu = double(n) * std::ldexp(1.0, -24);
  return nu / (1.0 - nu);
}

Validation validate(const Problem& p) {
  const auto n = std::size_t(p.n);
  const auto entry = [&](std::size_t e) { return p.checked.empty() ? e : p.checked[e]; };
  return check_elements(
      p.ref.size(), tolerance(p.n),
      [&](std::size_t e) {
        const double err = std::fabs(double(p.c[entry(e)]) - p.ref[e]);
        return p.abs_sum[e] > 0 ? err / p.abs_sum[e] : err;
      },
      [&](std::size_t e) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "c[%zu,%zu]: got %.9g, want %.9g", entry(e) / n,
                      entry(e) % n, double(p.c[entry(e)]), p.ref[e]);
        return std::string(buf);
      });
}

double flops(int n) { return 2.0 * double(n) * n * n; }

std::vector<int> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {256};
  return {1024};
}

GlobalSize global_size(int n) { return GlobalSize{2, n, n}; }

Rect c_rect(int n, const Part& part) { return part_rect(part, n, n); }
Rect a_rect(int n, const Part& part) {
  return part.axis == SplitAxis::y ? c_rect(n, part) : Rect{0, 0, n, n};
}
Rect b_rect(int n, const Part& part) {
  return part.axis == SplitAxis::x ? c_rect(n, part) : Rect{0, 0, n, n};
}

std::vector<PartTransfer> part_io(Problem& p, const Part& part) {
  return {{host_array(p.a, p.n), a_rect(p.n, part), false},
          {host_array(p.b, p.n), b_rect(p.n, part), false},
          {host_array(p.c, p.n), c_rect(p.n, part), true}};
}

namespace {
class MmNaive : public Workload {
 public:
  std::string name() const override { return "mmnaive"; }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--mmnaive-n",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            sizes_.push_back(int(parse_int(text, "--mmnaive-n", {kMinN, kMaxN, kMultiple})));
        },
        "mmnaive matrix sides n (square, comma-separated multiples of 16 in 16..8192), "
        "overriding --size")
        ->type_name("N");
    local_.add_to(app);
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<int> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    for (int n : sizes) {
      const GlobalSize global = global_size(n);
      const std::function<Problem&()> problem = [this, n]() -> Problem& {
        return problems_.get(n, [n] { return make_problem(n); });
      };
      const auto describe = [n](Measurement& m, Problem& p, const DeviceInfo& dev) {
        m.unit = RateUnit::GFLOPs;
        m.work_per_launch = flops(n);
        m.roofline_flop = flops(n);
        m.roofline_bytes = 3.0 * sizeof(float) * double(n) * n;  // A, B read once, C written
        m.peak = dev.fp32_peak_gflops;
        m.clear_output = [&p] { std::fill(p.c.begin(), p.c.end(), NAN); };
        m.validate = [&p] { return validate(p); };
      };
      register_local_rows<Problem, Variant>(runners(), {{"n", std::to_string(n)}}, global, local_,
                                            opts, apis, problem, describe);
      register_split_rows<Problem, Variant>(runners(), {{"n", std::to_string(n)}}, global, local_,
                                            opts, apis, problem, describe, part_io, kSplitLaunches);
    }
  }

 private:
  std::vector<int> sizes_;  // empty: not given (the preset's)
  LocalOption local_{"mmnaive", 2};
  LastProblem<int, Problem> problems_;
};
}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<MmNaive>(); }

}  // namespace gpucmp::mmnaive

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(mmnaive, 80, gpucmp::mmnaive::make_workload);
