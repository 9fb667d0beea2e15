#include "mri.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "../../errors.h"
#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../rng.h"
#include "../../workload_registry.h"
#include "local_size.h"
#include "mri_byvalue.h"

namespace gpucmp::mri {

namespace {

// The reference of voxel i in double from the float inputs.
std::pair<double, double> reference_voxel(const Problem& p, std::size_t i) {
  const Dataset& d = p.data;
  const double two_pi = 6.283185307179586476925286766559;
  double re = 0, im = 0;
  for (int k = 0; k < d.numK; ++k) {
    const double arg =
        two_pi * (double(d.kx[k]) * d.x[i] + double(d.ky[k]) * d.y[i] + double(d.kz[k]) * d.z[i]);
    const double c = std::cos(arg), s = std::sin(arg);
    if (p.kind == Kind::q) {
      const double mag = double(d.phiR[k]) * d.phiR[k] + double(d.phiI[k]) * d.phiI[k];
      re += mag * c;
      im += mag * s;
    } else {
      const double rR = double(d.phiR[k]) * d.dR[k] + double(d.phiI[k]) * d.dI[k];
      const double rI = double(d.phiR[k]) * d.dI[k] - double(d.phiI[k]) * d.dR[k];
      re += rR * c - rI * s;
      im += rI * c + rR * s;
    }
  }
  return {re, im};
}

}  // namespace

const char* workload_name(Kind k) { return k == Kind::q ? "mriq" : "mrifhd"; }

parboil::BlockRule block_rule(Kind kind, int numX) {
  parboil::BlockRule rule;
  rule.kernel = std::string(workload_name(kind)) + (kind == Kind::q ? " ComputeQ" : " ComputeFH");
  rule.points_x = numX;
  rule.round_up = true;  // blocks = ceil(numX / block), `if (t >= numX) return`
  return rule;
}

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"precise", false, KLoop::tile_and_count},
      {"fast", true, KLoop::tile_and_count},
      {"uniform-tile", false, KLoop::count_only},
      {"uniform-tile-fast", true, KLoop::count_only},
      {"precise-prefetch", false, KLoop::prefetch},
      {"fast-prefetch", true, KLoop::prefetch},
      {"precise-byvalue", false, KLoop::tile_and_count, KFrom::byvalue},
      {"fast-byvalue", true, KLoop::tile_and_count, KFrom::byvalue}};
  return v;
}

Runners& runners(Kind kind) {
  static Runners q(workload_name(Kind::q), variants()), fhd(workload_name(Kind::fhd), variants());
  return kind == Kind::q ? q : fhd;
}

const Variant& variant(const std::string& name) {
  for (const Variant& v : variants())
    if (v.name == name) return v;
  throw ApiError("mriq/mrifhd have no variant '" + name + "'");
}

Dataset generate(Kind kind, int numK, int edge) {
  Dataset d;
  d.numK = numK;
  d.numX = edge * edge * edge;
  Rng rng(0x6d7269ULL ^ (std::uint64_t(numK) << 20) ^ std::uint64_t(edge));
  const float half = 0.5f * float(edge);
  for (auto* v : {&d.kx, &d.ky, &d.kz}) {
    v->resize(std::size_t(numK));
    for (auto& k : *v) k = rng.uniform(-half, half);
  }
  for (auto* v : {&d.x, &d.y, &d.z}) v->resize(std::size_t(d.numX));
  for (int i = 0; i < d.numX; ++i) {
    // Voxel i's integer lattice coordinates (i = (iz * edge + iy) * edge + ix):
    // the integer divisions are intended; each coordinate then maps to [-0.5, 0.5).
    const int ix = i % edge, iy = (i / edge) % edge, iz = i / (edge * edge);
    d.x[i] = float(ix) / float(edge) - 0.5f;
    d.y[i] = float(iy) / float(edge) - 0.5f;
    d.z[i] = float(iz) / float(edge) - 0.5f;
  }
  std::vector<std::vector<float>*> phis = {&d.phiR, &d.phiI};
  if (kind == Kind::fhd) phis.insert(phis.end(), {&d.dR, &d.dI});
  for (auto* v : phis) {
    v->resize(std::size_t(numK));
    for (auto& f : *v) f = rng.uniform(-1, 1);
  }
  d.origin = "generated " + std::to_string(edge) + "^3, numK " + std::to_string(numK);
  return d;
}

double tolerance(bool fast_math) { return fast_math ? 2e-3 : 1e-4; }

double flops(Kind kind, int numK, int numX) {
  const double per_pair = kind == Kind::q ? 12 : 16, per_k = kind == Kind::q ? 3 : 6;
  return per_pair * double(numK) * numX + per_k * numK;
}

Validation validate(const Problem& p, bool fast_math) {
  const Dataset& d = p.data;
  std::vector<std::size_t> voxels;
  if (double(d.numK) * d.numX <= double(1 << 25)) {
    voxels.resize(std::size_t(d.numX));
    for (std::size_t i = 0; i < voxels.size(); ++i) voxels[i] = i;
  } else {
    Rng rng(0x766f78ULL);
    voxels.resize(2048);
    for (auto& i : voxels) i = rng.below(std::uint64_t(d.numX));
  }
  // Real and imaginary parts are checked as 2 x voxels values.
  // The reference voxels over the host's threads (each voxel sums every k).
  std::vector<double> ref(2 * voxels.size());
  parallel_for(voxels.size(), 16, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t v = begin; v < end; ++v) {
      const auto [re, im] = reference_voxel(p, voxels[v]);
      ref[2 * v] = re;
      ref[2 * v + 1] = im;
    }
  });
  double max_ref = 0;
  for (const double r : ref) max_ref = std::max(max_ref, std::fabs(r));
  const auto got = [&](std::size_t k) {
    return double(k % 2 ? p.out_i[voxels[k / 2]] : p.out_r[voxels[k / 2]]);
  };
  return check_elements_parallel(
      ref.size(), tolerance(fast_math),
      [&](std::size_t k) {
        const double scale = std::max(max_ref, 20 * std::fabs(ref[k]));
        return scale > 0 ? std::fabs(got(k) - ref[k]) / scale : std::fabs(got(k) - ref[k]);
      },
      [&](std::size_t k) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s[%zu]: got %.7g, want %.7g (max|ref| %.4g)",
                      k % 2 ? "imag" : "real", voxels[k / 2], got(k), ref[k], max_ref);
        return std::string(buf);
      });
}

namespace {

class Mri : public Workload {
 public:
  explicit Mri(Kind kind)
      : kind_(kind),
        local_(workload_name(kind), 1,
               "the voxel kernel's; any N up to the device limit, the grid rounds up; sweep: "
               "the divisors of numX; the usual rows keep 256") {}
  std::string name() const override { return workload_name(kind_); }

  // --tune (tune_family.h): one data set, precise and fast math apart, each
  // with its source forms (uniform tiles, k-values read a step ahead or passed
  // by value);
  // --<workload>-local's size is free. -ldg rows are controls, -opencl-ptx
  // and -ptx-* cross-runs.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const std::vector<std::string> precise{"precise", "uniform-tile", "precise-prefetch",
                                                  "precise-byvalue"};
    static const std::vector<std::string> fast{"fast", "uniform-tile-fast", "fast-prefetch",
                                               "fast-byvalue"};
    // OpenCL's own: the k-values read as float4 (opencl/parboil/mri*.cl).
    static const std::vector<std::string> precise_cl{"precise", "uniform-tile", "precise-prefetch",
                                                     "precise-byvalue", "precise-vec4"};
    static const std::vector<std::string> fast_cl{"fast", "uniform-tile-fast", "fast-prefetch",
                                                  "fast-byvalue", "fast-vec4"};
    static const TuneRule rule{
        {"numK", "numX"}, {}, {{"precise", precise, precise_cl}, {"fast", fast, fast_cl}}};
    return tune_family_by_rule(row, rule);
  }

  // Paths are checked when parsed (a given empty path is refused, not taken
  // for "not given"), and the input is read then: a bad file is refused before
  // any workload writes its --*-save-inputs. The output's folder is checked
  // too, so that a bad --*-output is refused before the run, not after it.
  void add_options(CLI::App& app) override {
    const std::string w = name();
    add_checked_option(
        app, "--" + w + "-input",
        [this, w](const std::string& path) {
          check_input_file(path, "--" + w + "-input");
          input_ = read_parboil_input(path, kind_);
        },
        w + ": Parboil input file to use instead of the generated datasets")
        ->type_name("FILE");
    add_checked_option(
        app, "--" + w + "-output",
        [this, w](const std::string& path) {
          check_output_file(path, "--" + w + "-output");
          output_ = path;
        },
        w + ": write Parboil's output layout after each validated precise run")
        ->type_name("FILE");
    add_checked_option(
        app, "--" + w + "-save-inputs",
        [this, w](const std::string& dir) {
          check_output_directory(dir, "--" + w + "-save-inputs");
          save_dir_ = dir;
        },
        w +
            ": write each dataset whose rows run as a Parboil input file into this existing "
            "folder (" +
            w + "-numK<K>-numX<X>.bin), to run Parboil on it")
        ->type_name("DIR");
    local_.add_to(app);
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<Dataset> sets;
    if (input_) {
      sets.push_back(std::move(*input_));
    } else if (opts.size == SizePreset::quick) {
      sets.push_back(generate(kind_, 512, 16));
    } else {  // Parboil's "small" (32^3) and "large" (64^3) shapes
      sets.push_back(generate(kind_, 3072, 32));
      sets.push_back(generate(kind_, 2048, 64));
    }
    bool startup = true;  // for the first dataset
    for (auto& d : sets) {
      auto data = std::make_shared<const Dataset>(std::move(d));
      for (const Runners::Row& row : runners(kind_).rows())
        register_one(data, row, row.variant, std::nullopt, startup, opts, apis);
      startup = false;
      if (!local_.given()) continue;
      for (const Runners::Row& row : runners(kind_).rows())
        for (const parboil::LocalRow& l :
             local_.rows(block_rule(kind_, data->numX), apis, row.api)) {
          Variant v = row.variant;
          v.local = l.spec.shape;
          register_one(data, row, v, l, false, opts, apis);
        }
    }
  }

 private:
  // `local`: the row's --<workload>-local size; none for the default rows
  // (their names, counters and startup rows as before the option existed).
  void register_one(const std::shared_ptr<const Dataset>& data, const Runners::Row& row,
                    const Variant& v, const std::optional<parboil::LocalRow>& local, bool startup,
                    const Options& opts, const ApiSet& apis) {
    BenchName name{name_of(kind_),
                   row.api,
                   v.name,
                   {{"numK", std::to_string(data->numK)}, {"numX", std::to_string(data->numX)}}};
    if (local) name.params.push_back(local->param());
    const Kind kind = kind_;
    const std::string output = output_.value_or("");
    const Runners::Factory make = row.make;
    const auto prepare = [=](const DeviceInfo& dev) {
      save_input_once(*data);  // when a row of it runs: a refused or empty run writes none
      // Owned by the measurement's closures, which outlive the runner (Prepared).
      auto problem = std::make_shared<Problem>();
      Problem& p = *problem;
      p.kind = kind;
      p.data = *data;
      p.out_r.assign(std::size_t(data->numX), 0.0f);
      p.out_i.assign(std::size_t(data->numX), 0.0f);
      MeasuredRow measured(name);
      if (local) parboil::prepare_local_row(measured.measurement(), *local, dev, name.str());
      const double flop = flops(kind, data->numK, data->numX);
      if (v.from == KFrom::byvalue) measured.counter("k_per_launch", byvalue_k(kind, dev));
      measured.runner(make(p, v))
          .rate(RateUnit::GFLOPs, flop, dev.fp32_peak_gflops)
          // Each voxel's x, y, z read and its two outputs written; each k-value's
          // kx, ky, kz and 1 (Q: |phi|^2) or 2 (FHD: mu r, i) words read once.
          .roofline(flop,
                    sizeof(float) * (5.0 * data->numX + (kind == Kind::q ? 4.0 : 5.0) * data->numK))
          .per_item(double(data->numK) * data->numX, "ps_per_voxel_k")
          .commands_per_launch(commands_per_launch(kind, data->numK, v, dev))
          .clear_output([problem] {
            std::fill(problem->out_r.begin(), problem->out_r.end(), NAN);
            std::fill(problem->out_i.begin(), problem->out_i.end(), NAN);
          })
          .validate([problem, v] { return validate(*problem, v.fast_math); });
      if (!output.empty() && !v.fast_math)
        measured.after_timing(
            [problem, output] { write_parboil_output(output, problem->out_r, problem->out_i); });
      return measured.prepared();
    };
    register_measured(name, apis, opts, prepare, startup);
  }
  static std::string name_of(Kind k) { return workload_name(k); }

  Kind kind_;
  parboil::LocalSizes local_;
  // Empty: not given.
  std::optional<Dataset> input_;
  // --<workload>-save-inputs: each dataset once, as the first of its rows runs.
  void save_input_once(const Dataset& d) {
    if (!save_dir_) return;
    const std::string path = *save_dir_ + "/" + name() + "-numK" + std::to_string(d.numK) +
                             "-numX" + std::to_string(d.numX) + ".bin";
    if (saved_.insert(path).second) write_parboil_input(path, d, kind_);
  }

  std::optional<std::string> output_, save_dir_;
  std::set<std::string> saved_;  // the --<workload>-save-inputs files written
};

}  // namespace

std::unique_ptr<Workload> make_workload(Kind kind) { return std::make_unique<Mri>(kind); }

}  // namespace gpucmp::mri

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(
    mriq, 40, +[] { return gpucmp::mri::make_workload(gpucmp::mri::Kind::q); });
GPUCMP_WORKLOAD(
    mrifhd, 50, +[] { return gpucmp::mri::make_workload(gpucmp::mri::Kind::fhd); });
