#include "bodies.h"

#include <gpucmp_layouts.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../rng.h"
#include "../../workload_registry.h"

namespace gpucmp::bodies {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base"}};
  return v;
}

Runners& runners() {
  static Runners table("bodies", variants());
  return table;
}

Problem make_problem(std::size_t n) {
  Problem p;
  p.n = n;
  p.aos.resize(n * kWords);
  Rng rng(0x626f6479ULL ^ n);
  for (float& x : p.aos) x = rng.uniform(-1, 1);
  p.r2.assign(n, NAN);
  return p;
}

double counted_bytes(std::size_t n) { return 4.0 * sizeof(float) * double(n); }

std::vector<std::size_t> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {std::size_t(1) << 16};
  return {std::size_t(1) << 24, std::size_t(1) << 26};
}

Validation validate(const Problem& p) {
  const auto ref = [&p](std::size_t i) {
    const float* pos = &p.aos[i * kWords + BODY12_POS];
    return double(pos[0]) * pos[0] + double(pos[1]) * pos[1] + double(pos[2]) * pos[2];
  };
  return check_elements_parallel(
      p.n, 3 * std::ldexp(1.0, -24) / (1 - 3 * std::ldexp(1.0, -24)),
      [&](std::size_t i) {
        const double want = ref(i);
        return want > 0 ? std::fabs(p.r2[i] - want) / want : std::fabs(double(p.r2[i]));
      },
      [&](std::size_t i) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "r2[%zu]: got %.9g, want %.9g", i, double(p.r2[i]), ref(i));
        return std::string(buf);
      });
}

namespace {

class Bodies : public Workload {
 public:
  std::string name() const override { return "bodies"; }

  // --tune (tune_family.h): each API's kernel at one record count, the
  // record layout free.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const std::vector<std::string> kernels{"base"};
    static const TuneRule rule{{"n"}, {"layout"}, {{"", kernels, kernels}}};
    return tune_family_by_rule(row, rule);
  }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--bodies-n",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            sizes_.push_back(
                std::size_t(parse_int(text, "--bodies-n", {kBlock, kMaxBodies, kBlock})));
        },
        "bodies: records (comma-separated multiples of 256, at most 2^27), overriding --size")
        ->type_name("N");
    layouts_.add_option(app, "--bodies-layout", "bodies: record layouts");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<std::size_t> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    for (std::size_t n : sizes)
      for (layout::Layout l : layouts_.rows())
        for (const Runners::Row& row : runners().rows()) {
          const BenchName name{"bodies",
                               row.api,
                               row.variant.name,
                               {{"n", std::to_string(n)}, {"layout", to_string(l)}}};
          const auto prepare = [this, n, l, row, name](const DeviceInfo& dev) {
            Problem& p = problems_.get(n, [n] { return make_problem(n); });
            Variant v = row.variant;
            v.layout = l;
            return MeasuredRow(name)
                .runner(row.make(p, v))
                .rate(RateUnit::GBps, counted_bytes(n), dev.dram_peak_gbps)
                .roofline(5.0 * double(n), counted_bytes(n))  // 3 products, 2 sums a body
                .clear_output([&p] { fill_parallel(p.r2, NAN); })
                .validate([&p] { return validate(p); })
                .prepared();
          };
          register_measured(name, apis, opts, prepare, /*startup=*/false);
        }
  }

 private:
  std::vector<std::size_t> sizes_;
  layout::LayoutAxis layouts_;
  LastProblem<std::size_t, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Bodies>(); }

}  // namespace gpucmp::bodies

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(bodies, 140, gpucmp::bodies::make_workload);
