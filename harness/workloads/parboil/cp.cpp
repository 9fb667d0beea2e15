#include "cp.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "../../errors.h"
#include "../../rng.h"

namespace gpucmp::cp {

namespace {
double reference_point(const Problem& p, int xi, int yi) {
  const double x = double(p.config.spacing) * xi, y = double(p.config.spacing) * yi;
  double e = 0;
  for (int n = 0; n < p.config.atoms; ++n) {
    const float* a = &p.atoms[4 * std::size_t(n)];
    const double dx = x - a[0], dy = y - a[1];
    e += a[3] / std::sqrt(dx * dx + dy * dy + a[2]);
  }
  return e;
}
}  // namespace

Runners& runners() {
  static Runners table("cp", variants());
  return table;
}

const Variant& variant(const std::string& name) {
  for (const Variant& v : variants())
    if (v.name == name) return v;
  throw ApiError("cp has no variant '" + name + "'");
}

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base", Kernel::base, Math::precise},
                                         {"unrollx8", Kernel::unrollx8, Math::precise},
                                         {"unrollx8-ieee", Kernel::unrollx8, Math::ieee},
                                         {"unrollx8-fast", Kernel::unrollx8, Math::fast},
                                         {"unrollx8-fast-ftz", Kernel::unrollx8, Math::fast}};
  return v;
}

Problem make_problem(const Config& c) {
  Problem p;
  p.config = c;
  p.atoms.resize(4 * std::size_t(c.atoms));
  p.energy.assign(std::size_t(c.nx) * c.ny, 0.0f);
  Rng rng(0x6370ULL ^ (std::uint64_t(c.atoms) << 32) ^ std::uint64_t(c.nx * 7919 + c.ny));
  const float plane_z = 10.05f * c.spacing;
  for (int n = 0; n < c.atoms; ++n) {
    float* a = &p.atoms[4 * std::size_t(n)];
    a[0] = rng.uniform(0, float(c.nx) * c.spacing);
    a[1] = rng.uniform(0, float(c.ny) * c.spacing);
    const float dz = rng.uniform(0, 20 * c.spacing) - plane_z;
    a[2] = dz * dz;
    a[3] = rng.uniform(-1, 1);
  }
  return p;
}

double interactions(const Config& c) { return double(c.nx) * c.ny * c.atoms; }

Validation validate(const Problem& p) {
  const Config& c = p.config;
  std::vector<std::size_t> points;
  if (interactions(c) <= double(1 << 26)) {
    points.resize(std::size_t(c.nx) * c.ny);
    for (std::size_t i = 0; i < points.size(); ++i) points[i] = i;
  } else {
    Rng rng(0x73616d70ULL);
    points.resize(1024);
    for (auto& i : points) i = rng.below(std::uint64_t(c.nx) * c.ny);
  }
  std::vector<double> ref(points.size());
  return check_elements(
      points.size(), 0.005,
      [&](std::size_t k) {
        ref[k] = reference_point(p, int(points[k] % c.nx), int(points[k] / c.nx));
        return std::fabs(p.energy[points[k]] - ref[k]) / std::max(1.0, std::fabs(ref[k]));
      },
      [&](std::size_t k) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "energy[y=%zu,x=%zu]: got %.7g, want %.7g", points[k] / c.nx,
                      points[k] % c.nx, double(p.energy[points[k]]), ref[k]);
        return std::string(buf);
      });
}

namespace {
class Cp : public Workload {
 public:
  std::string name() const override { return "cp"; }

  // Checked when parsed: a value the user gave (0 included) must be valid; one
  // not given leaves the preset's.
  void add_options(CLI::App& app) override {
    add_checked_option(
        app, "--cp-grid",
        [this](const std::string& text) {
          grid_ = int(parse_int(text, "--cp-grid", {kGridStep, kMaxGrid, kGridStep}));
        },
        "cp lattice points per side (a multiple of 128 in 128..16384)")
        ->type_name("N");
    add_checked_option(
        app, "--cp-atoms",
        [this](const std::string& text) {
          atoms_ = int(parse_int(text, "--cp-atoms", {1, kMaxAtoms}));
        },
        "cp number of atoms (1..10000000)")
        ->type_name("N");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    Config c;
    if (opts.size == SizePreset::quick) c = Config{128, 128, 2000, 0.1f};
    if (grid_) c.nx = c.ny = *grid_;
    if (atoms_) c.atoms = *atoms_;
    for (const Runners::Row& row : runners().rows())
      register_one(c, row.api, row.make, row.variant, opts, apis);
  }

 private:
  void register_one(const Config& c, const std::string& api, const Runners::Factory& make,
                    const Variant& v, const Options& opts, const ApiSet& apis) {
    const BenchName name{
        "cp", api, v.name, {{"grid", std::to_string(c.nx)}, {"atoms", std::to_string(c.atoms)}}};
    const auto prepare = [=](const DeviceInfo& dev) {
      Problem& p = problems_.get(c, [c] { return make_problem(c); });
      Prepared r;
      r.runner = make(p, v);
      Measurement& m = r.m;
      m.name = name;
      m.unit = RateUnit::GFLOPs;
      m.work_per_launch = kFlopPerInteraction * interactions(c);
      m.peak = dev.fp32_peak_gflops;
      m.items_per_launch = interactions(c);
      m.time_per_item_counter = "ps_per_interaction";
      m.clear_output = [&p] { std::fill(p.energy.begin(), p.energy.end(), NAN); };
      m.validate = [&p] { return validate(p); };
      return r;
    };
    register_measured(name, apis, opts, prepare, /*startup=*/true);
  }

  // A thread block of 16 threads, each 8 points along x: the grid's step.
  static constexpr int kGridStep = kBlockX * kUnrollX, kMaxGrid = 16384;
  static constexpr int kMaxAtoms = 10000000;
  std::optional<int> grid_, atoms_;  // empty: not given
  LastProblem<Config, Problem> problems_;
};
}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Cp>(); }

}  // namespace gpucmp::cp
