#include "reduce.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "../../errors.h"
#include "../../measured_row.h"
#include "../../workload_registry.h"

namespace gpucmp::reduce {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"tree"}, {"cascading"}, {"pipeline"}};
  return v;
}

std::string algorithm(const std::string& variant) { return variant.substr(0, variant.find('-')); }

int launch_kernels(const std::string& row_variant, std::size_t n) {
  const std::string variant = algorithm(row_variant);
  if (variant == "cub") return 0;   // CUB's dispatch: not counted
  if (variant != "tree") return 2;  // cascading, pipeline: the blocks' pass, then one block
  int kernels = 1;
  for (std::size_t m = n; m > std::size_t(kBlock); m = (m + kBlock - 1) / kBlock) ++kernels;
  return kernels;
}

Runners& runners() {
  static Runners table("reduce", variants());
  return table;
}

Problem make_problem(std::size_t n, Type type) {
  Problem p;
  p.n = n;
  p.type = type;
  p.words = agpu::make_words(n, type);
  return p;
}

namespace {
std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }
int log2_block() {
  int l = 0;
  while ((1 << l) < kBlock) ++l;
  return l;
}
}  // namespace

int grid_blocks(int compute_units, std::size_t n) {
  const std::size_t most = std::size_t(std::max(compute_units, 1)) * kBlocksPerUnit;
  return int(std::max<std::size_t>(1, std::min(most, ceil_div(n, 4 * std::size_t(kBlock)))));
}

int summation_depth(const std::string& row_variant, std::size_t n, int blocks) {
  const std::string variant = algorithm(row_variant);
  const int tree = log2_block();
  if (variant == "tree") {
    int passes = 0;
    for (std::size_t m = n; m > 1; m = ceil_div(m, kBlock)) ++passes;
    return std::max(passes, 1) * tree;
  }
  const auto g = std::size_t(blocks);
  if (variant == "pipeline") {
    const std::size_t tile = std::size_t(kBlock) * kTileWords;
    const std::size_t tiles = ceil_div(ceil_div(n, g), tile);
    return int(tiles + kTileWords + tree) + int(ceil_div(g, tile)) + kTileWords + tree;
  }
  // cascading. CUB's order is its own and not derived here: its rows are
  // given cascading's bound, an assumption (they met it on the H200).
  const std::size_t vectors = ceil_div(ceil_div(n, 4), g * kBlock);
  return int(vectors + 3 + tree + ceil_div(g, kBlock) + tree);
}

namespace {
// The block's neighbours-first tree over kBlock values (reduce.cu's block_tree).
std::uint32_t block_tree_product(std::vector<std::uint32_t> v) {
  for (std::size_t stride = 1; stride < v.size(); stride *= 2)
    for (std::size_t i = 0; i + stride < v.size(); i += 2 * stride)
      v[i] = agpu::affine_product(v[i], v[i + stride]);
  return v[0];
}

// One block over `words` as reduce_strided_block: thread t combines words
// t, t + kBlock, ..., then the block's tree.
std::uint32_t strided_block_product(const std::vector<std::uint32_t>& words) {
  std::vector<std::uint32_t> mine(kBlock, agpu::kAffineIdentity);
  for (std::size_t i = 0; i < words.size(); ++i)
    mine[i % kBlock] = agpu::affine_product(mine[i % kBlock], words[i]);
  return block_tree_product(mine);
}
}  // namespace

std::uint32_t cascading_product(const std::vector<std::uint32_t>& words, int blocks) {
  const std::size_t threads = std::size_t(blocks) * kBlock, vectors = words.size() / 4;
  std::vector<std::uint32_t> partials(static_cast<std::size_t>(blocks));
  std::vector<std::uint32_t> block(kBlock);
  for (std::size_t b = 0; b < std::size_t(blocks); ++b) {
    for (std::size_t t = 0; t < std::size_t(kBlock); ++t) {
      std::uint32_t lane[4] = {agpu::kAffineIdentity, agpu::kAffineIdentity, agpu::kAffineIdentity,
                               agpu::kAffineIdentity};
      for (std::size_t v = b * kBlock + t; v < vectors; v += threads)
        for (int k = 0; k < 4; ++k) lane[k] = agpu::affine_product(lane[k], words[4 * v + k]);
      // The last n % 4 words, one to each of the first threads (after its vectors).
      if (const std::size_t tail = 4 * vectors + b * kBlock + t; tail < words.size())
        lane[0] = agpu::affine_product(lane[0], words[tail]);
      block[t] = agpu::affine_product(agpu::affine_product(lane[0], lane[1]),
                                      agpu::affine_product(lane[2], lane[3]));
    }
    partials[b] = block_tree_product(block);
  }
  return strided_block_product(partials);
}

namespace {
void make_reference(Problem& p) {
  if (p.have_reference) return;
  p.want_affine = agpu::kAffineIdentity;
  for (std::uint32_t w : p.words) {
    p.want_int32 += w;
    p.want_affine = agpu::affine_product(p.want_affine, w);
    float x;
    std::memcpy(&x, &w, sizeof x);
    p.want_sum += x;
    p.magnitude += std::fabs(x);
  }
  p.have_reference = true;
}
}  // namespace

std::uint32_t affine_reference(Problem& p, const std::string& variant) {
  make_reference(p);
  return algorithm(variant) == "cascading" ? cascading_product(p.words, p.grid_blocks)
                                           : p.want_affine;
}

Validation validate(Problem& p, const std::string& variant) {
  make_reference(p);
  if (p.type != Type::f32) {
    const bool affine = p.type == Type::affine16;
    const std::uint32_t want = affine ? affine_reference(p, variant) : p.want_int32;
    Validation v;
    v.checked = 1;
    v.tolerance = 0;
    v.max_rel_err = p.result == want ? 0.0 : 1.0;
    v.ok = p.result == want;
    char buf[128];
    if (affine)
      std::snprintf(buf, sizeof buf, "product%s: got 0x%08x, want 0x%08x (affine16)",
                    algorithm(variant) == "cascading" ? " in cascading's order" : "",
                    unsigned(p.result), unsigned(want));
    else
      std::snprintf(buf, sizeof buf, "sum: got %d, want %d (mod 2^32)", int(p.result), int(want));
    v.where = buf;
    return v;
  }
  const double sum = p.want_sum, magnitude = p.magnitude;
  float got;
  std::memcpy(&got, &p.result, sizeof got);
  const int d = summation_depth(variant, p.n, p.grid_blocks);
  const double u = std::ldexp(1.0, -24);
  const double gamma = d * u / (1 - d * u);
  return check_elements(
      1, gamma, [&](std::size_t) { return std::fabs(got - sum) / std::max(magnitude, 1e-300); },
      [&](std::size_t) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "sum: got %.9g, want %.9g (error / sum|x|, d = %d)",
                      double(got), sum, d);
        return std::string(buf);
      });
}

std::vector<std::size_t> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {std::size_t(1) << 20};
  if (size == SizePreset::large)
    return {std::size_t(1) << 24, std::size_t(1) << 28, std::size_t(1) << 30};
  return {std::size_t(1) << 16, std::size_t(1) << 20, std::size_t(1) << 24, std::size_t(1) << 28};
}

namespace {

class Reduce : public Workload {
 public:
  std::string name() const override { return "reduce"; }

  // --tune (tune_family.h): each API's reductions of one type and n;
  // pipeline-regcap40 is OpenCL's pipeline built with -cl-nv-maxrregcount=40,
  // a build option an OpenCL user has. CUB is a vendor library.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const TuneRule rule{{"type", "n"},
                               {},
                               {{"",
                                 {"tree", "cascading", "pipeline"},
                                 {"tree", "cascading", "pipeline", "pipeline-regcap40"}}}};
    return tune_family_by_rule(row, rule);
  }

  void add_options(CLI::App& app) override {
    agpu::add_word_options(app, "reduce", sizes_, types_);
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<std::size_t> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    std::vector<Type> types = types_;
    if (types.empty()) types = {Type::int32, Type::f32};
    for (Type t : types)
      for (std::size_t n : sizes)
        for (const Runners::Row& row : runners().rows()) {
          const BenchName name{"reduce",
                               row.api,
                               row.variant.name,
                               {{"type", agpu::to_string(t)}, {"n", std::to_string(n)}}};
          const auto prepare = [this, n, t, row, name](const DeviceInfo& dev) {
            if (t == Type::affine16 && row.variant.name == "cub")
              throw Unavailable(
                  "CUB's DeviceReduce does not support non-commutative operators (its "
                  "documentation); affine16 is one");
            Problem& p = problems_.get({n, int(t)}, [n, t] { return make_problem(n, t); });
            p.grid_blocks = grid_blocks(dev.compute_units, n);
            const double bytes = 4.0 * double(n);
            MeasuredRow measured(name);
            measured.runner(row.make(p, row.variant))
                .rate(RateUnit::GBps, bytes, dev.dram_peak_gbps)
                .roofline(t == Type::f32 ? double(n) : 0.0, bytes)  // one sum a word
                .clear_output([&p] { p.result = 0xffffffffU; })
                .validate([&p, variant = row.variant.name] { return validate(p, variant); })
                .commands_per_launch(launch_kernels(row.variant.name, n));
            if (t == Type::affine16)
              measured.counter("keeps_order",
                               affine_reference(p, row.variant.name) == p.want_affine ? 1.0 : 0.0);
            return measured.prepared();
          };
          register_measured(name, apis, opts, prepare, /*startup=*/false);
        }
  }

 private:
  std::vector<std::size_t> sizes_;  // empty: not given (the preset's)
  std::vector<Type> types_;         // empty: both
  LastProblem<std::pair<std::size_t, int>, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Reduce>(); }

}  // namespace gpucmp::reduce

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(reduce, 150, gpucmp::reduce::make_workload);
