#include "matrixmul.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "../../errors.h"
#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../rng.h"
#include "../../workload_registry.h"

namespace gpucmp::matrixmul {

namespace {

// ref = sum_k a_ik b_kj in double; abs_sum = sum_k |a_ik b_kj|.
double reference_entry(const Problem& p, int i, int j, double& abs_sum) {
  double sum = 0;
  abs_sum = 0;
  for (int k = 0; k < p.n; ++k) {
    const double prod = double(p.a[std::size_t(i) * p.n + k]) * p.b[std::size_t(k) * p.n + j];
    sum += prod;
    abs_sum += std::fabs(prod);
  }
  return sum;
}
}  // namespace

Runners& runners() {
  static Runners table("matrixMul", tiled_kernels());
  return table;
}

const std::vector<Variant>& tiled_kernels() {
  static const std::vector<Variant> kernels = {
      {"tile16", 16, 0}, {"tile32", 32, 0}, {"tile16-aligned", 16, 16}, {"tile32-aligned", 32, 16}};
  return kernels;
}

Problem make_problem(int n) {
  Problem p;
  p.n = n;
  const std::size_t count = std::size_t(n) * n;
  p.a.resize(count);
  p.b.resize(count);
  p.c.assign(count, 0.0f);
  Rng rng(0x6d61744d756cULL ^ std::uint64_t(n));
  for (auto& x : p.a) x = rng.uniform(-1, 1);
  for (auto& x : p.b) x = rng.uniform(-1, 1);
  return p;
}

double flops(int n) { return 2.0 * double(n) * n * n; }

std::vector<int> preset_sizes(SizePreset size) {
  switch (size) {
    case SizePreset::quick:
      return {256, 512};
    case SizePreset::standard:
      return {1024, 2048, 4096, 8192};
    case SizePreset::large:
      return {1024, 2048, 4096, 8192, 16384};
  }
  return {};
}

double tolerance(int n) { return double(n) * std::ldexp(1.0, -24); }

Validation validate(const Problem& p) {
  const int n = p.n;
  std::vector<std::size_t> entries;
  if (n <= kFullCheckMaxN) {
    entries.resize(std::size_t(n) * n);
    for (std::size_t e = 0; e < entries.size(); ++e) entries[e] = e;
  } else {
    Rng rng(0x73616d706c65ULL ^ std::uint64_t(n));
    entries.resize(kSampledEntries);
    for (auto& e : entries) e = rng.below(std::uint64_t(n) * n);
  }
  std::vector<double> ref(entries.size());  // each entry's own slot: checked over threads
  return check_elements_parallel(
      entries.size(), tolerance(n),
      [&](std::size_t k) {
        const int i = int(entries[k] / n), j = int(entries[k] % n);
        double abs_sum = 0;
        ref[k] = reference_entry(p, i, j, abs_sum);
        const double err = std::fabs(double(p.c[entries[k]]) - ref[k]);
        return abs_sum > 0 ? err / abs_sum : err;
      },
      [&](std::size_t k) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "c[%zu,%zu]: got %.7g, want %.7g", entries[k] / n,
                      entries[k] % n, double(p.c[entries[k]]), ref[k]);
        return std::string(buf);
      });
}

namespace {
class MatrixMul : public Workload {
 public:
  std::string name() const override { return "matrixMul"; }

  // --tune (tune_family.h): the four tilings of each API at one n.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const std::vector<std::string> tiles{"tile16", "tile32", "tile16-aligned",
                                                "tile32-aligned"};
    static const TuneRule rule{{"n"}, {}, {{"", tiles, tiles}}};
    return tune_family_by_rule(row, rule);
  }

  // Each size is checked when parsed; a size that a variant's tile does not
  // divide skips that variant's rows (with the reason), not the run.
  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--mm-n",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            sizes_.push_back(int(parse_int(text, "--mm-n", {1, kMaxN})));
        },
        "matrixMul sizes n (square, comma-separated, each in 1..65536; a variant whose tile "
        "does not divide n skips that row), overriding --size")
        ->type_name("N");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<int> sizes = sizes_;
    const bool user_sizes = !sizes.empty();
    if (!user_sizes) sizes = preset_sizes(opts.size);
    for (int n : sizes) {
      const bool startup = n == sizes.front();
      for (const Runners::Row& row : runners().rows()) register_one(n, row, startup, opts, apis);
    }
  }

 private:
  void register_one(int n, const Runners::Row& row, bool startup, const Options& opts,
                    const ApiSet& apis) {
    const BenchName name{"matrixMul", row.api, row.variant.name, {{"n", std::to_string(n)}}};
    const auto prepare = [this, n, row, name](const DeviceInfo& dev) {
      // A size the variant's tile does not divide: that variant's row is
      // skipped with the reason; the other variants run.
      if (row.variant.tile > 0 && n % row.variant.tile != 0)
        throw Unavailable("n " + std::to_string(n) + " is not a multiple of " + row.variant.name +
                          "'s tile of " + std::to_string(row.variant.tile));
      Problem& p = problems_.get(n, [n] { return make_problem(n); });
      // cuBLAS and CLBlast may run helper kernels: their dispatch is not counted.
      const bool library = row.variant.name == "cublas" || row.variant.name == "clblast";
      return MeasuredRow(name)
          .runner(row.make(p, row.variant))
          .rate(RateUnit::GFLOPs, flops(n), dev.fp32_peak_gflops)
          .roofline(flops(n), 3.0 * sizeof(float) * double(n) * n)  // A, B read once, C written
          .clear_output([&p] { fill_parallel(p.c, NAN); })
          .validate([&p] { return validate(p); })
          .commands_per_launch(library ? 0 : 1)
          .prepared();
    };
    register_measured(name, apis, opts, prepare, startup);
  }

  static constexpr int kMaxN = 65536;  // 3 matrices of 16 GiB each
  std::vector<int> sizes_;             // empty: not given (the preset's)
  LastProblem<int, Problem> problems_;
};
}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<MatrixMul>(); }

}  // namespace gpucmp::matrixmul

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(matrixMul, 20, gpucmp::matrixmul::make_workload);
