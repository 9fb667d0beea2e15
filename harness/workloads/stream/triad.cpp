#include "triad.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../rng.h"
#include "../../workload_registry.h"

namespace gpucmp::triad {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base"}};
  return v;
}

Runners& runners() {
  static Runners table("triad", variants());
  return table;
}

Problem make_problem(std::size_t n) {
  Problem p;
  p.n = n;
  p.b.resize(n);
  p.c.resize(n);
  p.a.assign(n, NAN);
  Rng rng(0x74726961ULL ^ n);
  for (std::size_t i = 0; i < n; ++i) {
    p.b[i] = rng.uniform(-1, 1);
    p.c[i] = rng.uniform(-1, 1);
  }
  return p;
}

double counted_bytes(std::size_t n) { return 3.0 * sizeof(float) * double(n); }

std::vector<std::size_t> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {std::size_t(1) << 20};
  return {std::size_t(1) << 25, std::size_t(1) << 27};
}

Validation validate(const Problem& p) {
  return check_elements_parallel(
      p.n, std::ldexp(1.0, -22),
      [&](std::size_t i) {
        const double ref = double(p.b[i]) + double(kScalar) * double(p.c[i]);
        return std::fabs(p.a[i] - ref) / std::max(1.0, std::fabs(ref));
      },
      [&](std::size_t i) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "a[%zu]: got %.9g, want %.9g", i, double(p.a[i]),
                      double(p.b[i]) + double(kScalar) * double(p.c[i]));
        return std::string(buf);
      });
}

namespace {
class Triad : public Workload {
 public:
  std::string name() const override { return "triad"; }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--triad-n",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            sizes_.push_back(std::size_t(parse_int(text, "--triad-n", {kBlock, kMaxN, kBlock})));
        },
        "triad elements (comma-separated multiples of 256, at most 2^30), overriding --size")
        ->type_name("N");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<std::size_t> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    for (std::size_t n : sizes)
      for (const Runners::Row& row : runners().rows()) {
        const BenchName name{"triad", row.api, row.variant.name, {{"n", std::to_string(n)}}};
        const auto prepare = [this, n, row, name](const DeviceInfo& dev) {
          Problem& p = problems_.get(n, [n] { return make_problem(n); });
          return MeasuredRow(name)
              .runner(row.make(p, row.variant))
              .rate(RateUnit::GBps, counted_bytes(n), dev.dram_peak_gbps)
              .roofline(2.0 * double(n), counted_bytes(n))  // a product and a sum per element
              .clear_output([&p] { fill_parallel(p.a, NAN); })
              .validate([&p] { return validate(p); })
              .prepared();
        };
        register_measured(name, apis, opts, prepare, /*startup=*/n == sizes.front());
      }
  }

 private:
  std::vector<std::size_t> sizes_;  // empty: not given (the preset's)
  LastProblem<std::size_t, Problem> problems_;
};
}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Triad>(); }

}  // namespace gpucmp::triad

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(triad, 60, gpucmp::triad::make_workload);
