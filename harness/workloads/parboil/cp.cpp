#include "cp.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "../../errors.h"
#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../rng.h"
#include "../../workload_registry.h"
#include "local_size.h"

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

parboil::BlockRule block_rule(const Config& c, Kernel kernel) {
  const bool x8 = kernel == Kernel::unrollx8;
  parboil::BlockRule rule;
  rule.kernel = x8 ? "cp unrollx8" : "cp base";
  rule.dims = 2;
  rule.points_x = c.nx;  // grid = (nx / (per_thread_x X), ny / Y): no bounds check
  rule.points_y = c.ny;
  rule.per_thread_x = x8 ? kUnrollX : 1;
  return rule;
}

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"base", Kernel::base, Math::precise},
      {"unrollx8", Kernel::unrollx8, Math::precise},
      {"unrollx8-ieee", Kernel::unrollx8, Math::ieee},
      {"unrollx8-fast", Kernel::unrollx8, Math::fast},
      {"unrollx8-fast-ftz", Kernel::unrollx8, Math::fast},
      {"unrollx8-byvalue", Kernel::unrollx8, Math::precise, Form::byvalue},
      {"unrollx8-ieee-byvalue", Kernel::unrollx8, Math::ieee, Form::byvalue},
      {"unrollx8-fast-byvalue", Kernel::unrollx8, Math::fast, Form::byvalue},
      {"unrollx8-prefetch", Kernel::unrollx8, Math::precise, Form::prefetch},
      {"unrollx8-ieee-prefetch", Kernel::unrollx8, Math::ieee, Form::prefetch},
      {"unrollx8-fast-prefetch", Kernel::unrollx8, Math::fast, Form::prefetch}};
  return v;
}

int byvalue_atoms(const DeviceInfo& dev) {
  return byvalue::power_of_two_floor(byvalue::records_on(dev, kByValueShape));
}

int atoms_per_launch(const Variant& v, const DeviceInfo& dev) {
  return v.form == Form::byvalue ? byvalue_atoms(dev) : kAtomsPerChunk;
}

std::vector<float> byvalue_chunks(const Problem& p, int per_launch) {
  const std::size_t per = std::size_t(per_launch) * 4;
  std::vector<float> out = p.atoms;
  out.resize((out.size() + per - 1) / per * per, 0.0f);
  return out;
}

int commands_per_launch(const Config& c, const Variant& v, const DeviceInfo& dev) {
  const int per = atoms_per_launch(v, dev);
  const int launches = (c.atoms + per - 1) / per;
  return 1 + (v.form == Form::byvalue ? 1 : 2) * launches;
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
  std::vector<double> ref(points.size());  // each point's own slot: checked over threads
  return check_elements_parallel(
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

  // --tune (tune_family.h): one lattice and atom count, by math: IEEE
  // division and sqrt (CUDA's default rows and the -ieee ones), fast math,
  // and OpenCL's default math (within ulps), which no CUDA row has; each with
  // its source forms (atoms by value, read a step ahead). --cp-local's shape
  // is free. The -ldg rows are controls, -opencl-ptx and -ptx-* cross-runs.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const TuneRule rule{
        {"grid", "atoms"},
        {},
        {{"ieee",
          {"base", "unrollx8", "unrollx8-ieee", "unrollx8-byvalue", "unrollx8-prefetch",
           "unrollx8-ieee-byvalue", "unrollx8-ieee-prefetch"},
          {"unrollx8-ieee", "unrollx8-ieee-byvalue", "unrollx8-ieee-prefetch"}},
         {"fast",
          {"unrollx8-fast", "unrollx8-fast-ftz", "unrollx8-fast-byvalue", "unrollx8-fast-prefetch"},
          {"unrollx8-fast", "unrollx8-fast-ftz", "unrollx8-fast-byvalue",
           "unrollx8-fast-prefetch"}},
         {"default", {}, {"base", "unrollx8", "unrollx8-byvalue", "unrollx8-prefetch"}}}};
    return tune_family_by_rule(row, rule);
  }

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
    local_.add_to(app);
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    Config c;
    if (opts.size == SizePreset::quick) c = Config{128, 128, 2000, 0.1f};
    if (grid_) c.nx = c.ny = *grid_;
    if (atoms_) c.atoms = *atoms_;
    for (const Runners::Row& row : runners().rows())
      register_one(c, row, row.variant, std::nullopt, opts, apis);
    if (!local_.given()) return;
    for (const Runners::Row& row : runners().rows())
      for (const parboil::LocalRow& l :
           local_.rows(block_rule(c, row.variant.kernel), apis, row.api)) {
        Variant v = row.variant;
        v.local = l.spec.shape;
        register_one(c, row, v, l, opts, apis);
      }
  }

 private:
  // `local`: the row's --cp-local shape; none for the default rows (their
  // names, counters and startup rows as before the option existed).
  void register_one(const Config& c, const Runners::Row& row, const Variant& v,
                    const std::optional<parboil::LocalRow>& local, const Options& opts,
                    const ApiSet& apis) {
    BenchName name{"cp",
                   row.api,
                   v.name,
                   {{"grid", std::to_string(c.nx)}, {"atoms", std::to_string(c.atoms)}}};
    if (local) name.params.push_back(local->param());
    const Runners::Factory make = row.make;
    const auto prepare = [=](const DeviceInfo& dev) {
      MeasuredRow measured(name);
      if (local) parboil::prepare_local_row(measured.measurement(), *local, dev, name.str());
      Problem& p = problems_.get(c, [c] { return make_problem(c); });
      const double flop = kFlopPerInteraction * interactions(c);
      if (v.form == Form::byvalue) measured.counter("atoms_per_launch", atoms_per_launch(v, dev));
      return measured.runner(make(p, v))
          .rate(RateUnit::GFLOPs, flop, dev.fp32_peak_gflops)
          // The plane written once, each atom's x, y, z, q read once.
          .roofline(flop, sizeof(float) * (double(c.nx) * c.ny + 4.0 * c.atoms))
          .per_item(interactions(c), "ps_per_interaction")
          .commands_per_launch(commands_per_launch(c, v, dev))
          .clear_output([&p] { fill_parallel(p.energy, NAN); })
          .validate([&p] { return validate(p); })
          .prepared();
    };
    register_measured(name, apis, opts, prepare, /*startup=*/!local);
  }

  // A thread block of 16 threads, each 8 points along x: the grid's step.
  static constexpr int kGridStep = kBlockX * kUnrollX, kMaxGrid = 16384;
  static constexpr int kMaxAtoms = 10000000;
  std::optional<int> grid_, atoms_;  // empty: not given
  parboil::LocalSizes local_{"cp", 2,
                             "X and Y must divide the grid, 8X too for unrollx8; sweep: every "
                             "such shape; the usual rows keep 16x8"};
  LastProblem<Config, Problem> problems_;
};
}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Cp>(); }

}  // namespace gpucmp::cp

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(cp, 30, gpucmp::cp::make_workload);
