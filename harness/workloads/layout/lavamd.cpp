#include "lavamd.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "../../errors.h"
#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../rng.h"
#include "../../workload_registry.h"

namespace gpucmp::lavamd {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base"}, {"aligned"}};
  return v;
}

Runners& runners() {
  static Runners table("lavamd", variants());
  return table;
}

Problem make_problem(int boxes1d) {
  Problem p;
  p.boxes1d = boxes1d;
  const auto b = std::size_t(boxes1d);
  p.boxes = b * b * b;
  p.particles = p.boxes * kParPerBox;
  p.neighbours.assign(p.boxes * kNeighbours, -1);
  p.counts.assign(p.boxes, 0);
  for (int i = 0; i < boxes1d; ++i)
    for (int j = 0; j < boxes1d; ++j)
      for (int k = 0; k < boxes1d; ++k) {
        const std::size_t home = (std::size_t(i) * b + std::size_t(j)) * b + std::size_t(k);
        int* nei = &p.neighbours[home * kNeighbours];
        int count = 0;
        nei[count++] = int(home);
        for (int l = -1; l <= 1; ++l)
          for (int m = -1; m <= 1; ++m)
            for (int n = -1; n <= 1; ++n) {
              const int x = i + l, y = j + m, z = k + n;
              if ((l || m || n) && x >= 0 && y >= 0 && z >= 0 && x < boxes1d && y < boxes1d &&
                  z < boxes1d)
                nei[count++] = (x * boxes1d + y) * boxes1d + z;
            }
        p.counts[home] = count;
      }
  Rng rng(0x6c61766dULL ^ std::uint64_t(boxes1d));
  const auto tenth = [&rng] { return float(rng.below(10) + 1) / 10.0f; };
  p.rv.resize(p.particles * 4);
  p.qv.resize(p.particles);
  for (std::size_t i = 0; i < p.particles; ++i) {
    for (int w = 0; w < 4; ++w) p.rv[i * 4 + w] = tenth();
    p.qv[i] = tenth();
  }
  p.fv.assign(p.particles * 4, NAN);

  if (p.particles <= kFullCheckMaxParticles) {
    p.checked.resize(p.particles);
    std::iota(p.checked.begin(), p.checked.end(), std::size_t(0));
  } else {
    Rng pick(0x636865636bULL ^ std::uint64_t(boxes1d));
    for (int s = 0; s < kSampledParticles; ++s) p.checked.push_back(pick.below(p.particles));
  }
  p.ref.assign(p.checked.size() * 4, 0);
  p.scale.assign(p.checked.size() * 4, 0);
  p.terms.assign(p.checked.size(), 0);
  for (std::size_t c = 0; c < p.checked.size(); ++c) {
    const std::size_t i = p.checked[c], home = i / kParPerBox;
    const float* a = &p.rv[i * 4];
    double* ref = &p.ref[c * 4];
    double* scale = &p.scale[c * 4];
    for (int k = 0; k < p.counts[home]; ++k) {
      const std::size_t first = std::size_t(p.neighbours[home * kNeighbours + k]) * kParPerBox;
      for (std::size_t j = first; j < first + kParPerBox; ++j) {
        const float* r = &p.rv[j * 4];
        const double q = p.qv[j];
        const double r2 =
            double(a[0]) + r[0] - (double(a[1]) * r[1] + double(a[2]) * r[2] + double(a[3]) * r[3]);
        const double vij = std::exp(-double(kA2) * r2);
        ref[0] += q * vij;
        scale[0] += std::fabs(q * vij);
        for (int d = 1; d < 4; ++d) {
          ref[d] += q * 2.0 * vij * (double(a[d]) - r[d]);
          scale[d] += std::fabs(q) * 2.0 * vij * (std::fabs(a[d]) + std::fabs(r[d]));
        }
        ++p.terms[c];
      }
    }
  }
  return p;
}

double tolerance(int terms) {
  const double ku = (terms + 32) * std::ldexp(1.0, -24);
  return ku / (1 - ku);
}

Validation validate(const Problem& p) {
  return check_elements_parallel(
      p.checked.size() * 4, tolerance(kNeighbours * kParPerBox),
      [&](std::size_t e) {
        const std::size_t c = e / 4, w = e % 4;
        const double got = p.fv[p.checked[c] * 4 + w];
        // The bound of this particle's own pair count, scaled to the largest one's.
        const double err = std::fabs(got - p.ref[e]) / p.scale[e];
        return err * tolerance(kNeighbours * kParPerBox) / tolerance(p.terms[c]);
      },
      [&](std::size_t e) {
        const std::size_t c = e / 4, w = e % 4;
        char buf[128];
        std::snprintf(buf, sizeof buf, "fv[%zu].%c: got %.9g, want %.9g", p.checked[c], "vxyz"[w],
                      double(p.fv[p.checked[c] * 4 + w]), p.ref[e]);
        return std::string(buf);
      });
}

double interactions(const Problem& p) {
  double pairs = 0;
  for (std::size_t b = 0; b < p.boxes; ++b) pairs += double(p.counts[b]);
  return pairs * kParPerBox * kParPerBox;
}

std::vector<int> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {4};
  return {10, 20, 30, 40, 50, 60, 70};
}

namespace {

class LavaMd : public Workload {
 public:
  std::string name() const override { return "lavamd"; }

  // --tune (tune_family.h): each API's kernels at one box count, the data
  // layout free. -opencl-ptx and -ptx-jit rows are cross-runs.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const std::vector<std::string> kernels{"base", "aligned"};
    static const TuneRule rule{{"boxes1d"}, {"layout"}, {{"", kernels, kernels}}};
    return tune_family_by_rule(row, rule);
  }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--lavamd-boxes",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            sizes_.push_back(int(parse_int(text, "--lavamd-boxes", {1, kMaxBoxes1d})));
        },
        "LavaMD boxes per dimension (comma-separated, 1.." + std::to_string(kMaxBoxes1d) +
            "; at an odd number the AoSoA rows are skipped: tiles of 32 particles), overriding "
            "--size")
        ->type_name("N");
    layouts_.add_option(app, "--lavamd-layout", "LavaMD's particle layouts in global memory");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<int> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    for (int b : sizes)
      for (layout::Layout l : layouts_.rows()) {
        const auto particles = std::size_t(b) * std::size_t(b) * std::size_t(b) * kParPerBox;
        // A layout that cannot hold this size (AoSoA at an odd box count):
        // its rows are skipped with the reason, the others run.
        std::string cannot = layout::tile_mismatch(l, kTile, particles);
        if (!cannot.empty())
          cannot = "layout " + to_string(l) + " at boxes1d " + std::to_string(b) + ": " + cannot +
                   " (an even boxes1d runs)";
        for (const Runners::Row& row : runners().rows()) {
          const BenchName name{"lavamd",
                               row.api,
                               row.variant.name,
                               {{"boxes1d", std::to_string(b)}, {"layout", to_string(l)}}};
          const auto prepare = [this, b, l, row, name, cannot](const DeviceInfo& dev) {
            if (!cannot.empty()) throw Unavailable(cannot);
            Problem& p = problems_.get(b, [b] { return make_problem(b); });
            Variant v = row.variant;
            v.layout = l;
            const double flop = interactions(p) * kFlopsPerInteraction;
            return MeasuredRow(name)
                .runner(row.make(p, v))
                .rate(RateUnit::GFLOPs, flop, dev.fp32_peak_gflops)
                // Each particle's 4 coordinates and charge read once, its 4 forces written.
                .roofline(flop, 9.0 * sizeof(float) * double(p.particles))
                .per_item(interactions(p), "ps_per_interaction")
                .clear_output([&p] { fill_parallel(p.fv, NAN); })
                .validate([&p] { return validate(p); })
                .prepared();
          };
          register_measured(name, apis, opts, prepare, /*startup=*/false);
        }
      }
  }

 private:
  std::vector<int> sizes_;  // empty: not given (the preset's)
  layout::LayoutAxis layouts_;
  LastProblem<int, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<LavaMd>(); }

}  // namespace gpucmp::lavamd

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(lavamd, 120, gpucmp::lavamd::make_workload);
