// The advection workload's rows (advection.h): a row per grid and variant,
// one step per launch, validated after the first step against the double
// reference and after timing by the long-run check.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "../../errors.h"
#include "advection.h"
#include "advection_method.h"

namespace gpucmp::advection {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"blocked"}, {"branchy"}, {"plain"}, {"weights"}};
  return v;
}

Runners& runners() {
  static Runners table("advection", variants());
  return table;
}

Problem make_problem(int nx, int ny) {
  Problem p;
  p.nx = nx;
  p.ny = ny;
  p.flow = make_flow(nx, ny);
  const std::vector<double> f = initial_field(nx, ny);
  p.initial.assign(f.begin(), f.end());
  p.out.assign(f.size(), NAN);
  return p;
}

double counted_bytes(int nx, int ny) { return 8.0 * double(nx) * double(ny); }

std::vector<std::pair<int, int>> preset_grids(SizePreset size) {
  if (size == SizePreset::quick) return {{256, 256}};
  return {{2048, 2048}, {4096, 4096}, {16384, 4096}, {8192, 16384}};
}

namespace {
constexpr long long kFullCheckCells = 1LL << 22;
constexpr int kSampledRows = 64;

// The rows the one-step check covers.
std::vector<int> checked_rows(int nx, int ny) {
  std::vector<int> rows;
  if (static_cast<long long>(nx) * ny <= kFullCheckCells) {
    for (int y = 0; y < ny; ++y) rows.push_back(y);
    return rows;
  }
  for (int k = 0; k < kSampledRows; ++k)
    rows.push_back(int((long long)(ny - 1) * k / (kSampledRows - 1)));
  rows.push_back(kBorder);
  rows.push_back(ny - 1 - kBorder);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

// One step at cell (x, y) in double from the FP32 initial field.
double one_step(const Problem& p, int x, int y) {
  const auto at = [&](int cx, int cy) { return double(p.initial[std::size_t(cy) * p.nx + cx]); };
  if (x < kBorder || y < kBorder || x >= p.nx - kBorder || y >= p.ny - kBorder) return at(x, y);
  double column[5];
  for (int r = 0; r < 5; ++r) {
    double row[5];
    for (int c = 0; c < 5; ++c) row[c] = at(x - 2 + c, y - 2 + r);
    column[r] = step_1d(row, p.flow.xi_x(y));
  }
  return step_1d(column, p.flow.xi_y(x));
}

Validation validate_one_step(const Problem& p) {
  const std::vector<int> rows = checked_rows(p.nx, p.ny);
  const auto cell = [&](std::size_t i) {
    return std::pair<int, int>{int(i % std::size_t(p.nx)), rows[i / std::size_t(p.nx)]};
  };
  return check_elements(
      rows.size() * std::size_t(p.nx), kStepTolerance,
      [&](std::size_t i) {
        const auto [x, y] = cell(i);
        return std::fabs(double(p.out[std::size_t(y) * p.nx + x]) - one_step(p, x, y));
      },
      [&](std::size_t i) {
        const auto [x, y] = cell(i);
        char buf[128];
        std::snprintf(buf, sizeof buf, "f[y %d, x %d]: got %.9g, want %.9g (after 1 step)", y, x,
                      double(p.out[std::size_t(y) * p.nx + x]), one_step(p, x, y));
        return std::string(buf);
      });
}
}  // namespace

Validation validate(const Problem& p) {
  if (p.steps_done == 1) return validate_one_step(p);
  return validate_long_run(p.out, p.nx, p.ny, p.steps_done);
}

namespace {

std::pair<int, int> parse_grid(const std::string& text, const std::string& what) {
  const auto x = text.find('x');
  if (x == std::string::npos)
    throw UsageError(what + " " + text + ": not a grid NXxNY (e.g. 4096x4096)");
  const long long nx = parse_int(text.substr(0, x), what, {0, 1LL << 40});
  const long long ny = parse_int(text.substr(x + 1), what, {0, 1LL << 40});
  check_grid(nx, ny, what);
  return {int(nx), int(ny)};
}

class Advection : public Workload {
 public:
  std::string name() const override { return "advection"; }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--advection-grid",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items) grids_.push_back(parse_grid(text, "--advection-grid"));
        },
        "advection: grids NXxNY (comma-separated; multiples of 64, each at most 32768, at most "
        "2^27 cells), overriding --size")
        ->type_name("LIST");
  }

  void add_context(ContextList& ctx) const override {
    ctx.emplace_back("advection.flow",
                     "solid-body rotation about ((nx-1)/2, (ny-1)/2), counter-clockwise: u = "
                     "-omega (y - yc), v = omega (x - xc) cells per step, omega = " +
                         std::to_string(kCourant) + " / max(xc, yc) (|u|, |v| <= " +
                         std::to_string(kCourant) + " cells per step)");
    ctx.emplace_back("advection.initial",
                     "Gaussian of peak 1, sigma = min(nx, ny) / 16, centred at (xc + min(nx, "
                     "ny) / 4, yc); the outer 2 cells on every side keep their initial values");
    ctx.emplace_back("advection.launch", "one step (double-buffered f, FP32)");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<std::pair<int, int>> grids = grids_;
    if (grids.empty()) grids = preset_grids(opts.size);
    for (const auto& [nx, ny] : grids)
      for (const Runners::Row& row : runners().rows()) {
        const BenchName name{"advection",
                             row.api,
                             row.variant.name,
                             {{"nx", std::to_string(nx)}, {"ny", std::to_string(ny)}}};
        const auto prepare = [this, nx = nx, ny = ny, row, name](const DeviceInfo& dev) {
          Problem& p = problems_.get({nx, ny}, [nx, ny] { return make_problem(nx, ny); });
          Prepared r;
          r.runner = row.make(p, row.variant);
          Measurement& m = r.m;
          m.name = name;
          m.unit = RateUnit::GBps;
          m.work_per_launch = counted_bytes(nx, ny);
          m.items_per_launch = double(nx) * double(ny);
          m.time_per_item_counter = "ps_per_cell";
          m.roofline_flop = 0;  // no flop counted: placed against the DRAM ceiling
          m.roofline_bytes = counted_bytes(nx, ny);
          m.peak = dev.dram_peak_gbps;
          m.clear_output = [&p] { std::fill(p.out.begin(), p.out.end(), NAN); };
          m.validate = [&p] { return validate(p); };
          m.counters = {{"omega", p.flow.omega}, {"courant", kCourant}};
          return r;
        };
        register_measured(name, apis, opts, prepare, /*startup=*/false);
      }
  }

 private:
  std::vector<std::pair<int, int>> grids_;  // empty: the preset's
  LastProblem<std::pair<int, int>, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Advection>(); }

}  // namespace gpucmp::advection
