#include "scan.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "../../errors.h"
#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../workload_registry.h"

namespace gpucmp::scan {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"alpha"}, {"lookback"}, {"onepass"}};
  return v;
}

Runners& runners() {
  static Runners table("scan", variants());
  return table;
}

Problem make_problem(std::size_t n, Type type) {
  Problem p;
  p.n = n;
  p.type = type;
  p.words = agpu::make_words(n, type);  // reduce's words of the same n and type
  p.out.assign(n, 0xffffffffU);
  return p;
}

namespace {
std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }
constexpr int kLog2Block = 8;
static_assert((1 << kLog2Block) == kBlock);
}  // namespace

std::size_t tiles(std::size_t n, int alpha) { return ceil_div(n, std::size_t(alpha) * kBlock); }

int compiled_alpha(int alpha) { return alpha > 0 && (alpha & (alpha - 1)) == 0 ? alpha : 0; }

std::size_t lookback_status_bytes(std::size_t n, int alpha) {
  return (tiles(n, alpha) + 1) * sizeof(std::uint64_t);
}

bool is_onepass(const Variant& v) { return v.name == "onepass" || v.name == kOnepassRegcap64; }

bool batched_has_alpha(int alpha) { return alpha == 8 || alpha == 16 || alpha == 32; }

bool has_tile_status(const Variant& v) { return v.name == "lookback" || is_onepass(v); }

bool onepass_has_alpha(int alpha) { return alpha == 4 || alpha == 8 || alpha == 16 || alpha == 32; }

int summation_depth(const Variant& v, std::size_t n) {
  if (v.name == "alpha") {
    // The tile's sum (alpha in order, the block's scan), the scan of the
    // tile sums (a running offset over its tiles, kSumsAlpha in order, the
    // block's scan, the offset), and the word's own prefix in its tile
    // (alpha, the block's scan, two offsets).
    const std::size_t sum_tiles = ceil_div(tiles(n, v.alpha), std::size_t(kSumsAlpha) * kBlock);
    return int(v.alpha + kLog2Block + sum_tiles + kSumsAlpha + kLog2Block + 1 + v.alpha +
               kLog2Block + 2);
  }
  if (v.name == "lookback")
    // The tile's sum (alpha in order, the block's scan), a prefix that may
    // chain through every earlier tile's sum, and the word's own prefix in
    // its tile (alpha, the block's scan, the tile's offset).
    return int(v.alpha + kLog2Block + tiles(n, v.alpha) + v.alpha + kLog2Block + 1);
  if (is_onepass(v)) {
    // The tile's sum (CUDA: alpha - 1 in order, the warp's 5 shuffle steps,
    // 7 warp totals in order; OpenCL: alpha - 1, 15 in the thread's segment
    // of 16, 15 segment sums: alpha + 29 at most); a prefix that may chain
    // through every earlier tile, each link adding at most a look-back
    // round's 5 steps (OpenCL: one step a tile passed), the round's product
    // and the tile's own sum (7), and a round without a prefix one more
    // (every 32 tiles); the word's own prefix: 3 more.
    const std::size_t m = tiles(n, v.alpha);
    return int(v.alpha + 29 + 7 * m + m / 32 + 3);
  }
  // CUB: a tile's prefix may chain through every earlier tile's aggregate
  // (decoupled look-back). That its tiles hold at least 1024 words is an
  // assumption, not read from CUB (its rows met the bound on the H200).
  return int(ceil_div(n, 1024)) + 64;
}

namespace {
// Words a thread of the checks below takes at least.
constexpr std::size_t kScanGrain = std::size_t(1) << 16;

// Thread t's words of n over `threads`, as parallel_for cuts them.
std::size_t chunk_begin(std::size_t n, unsigned threads, unsigned t) { return n * t / threads; }

// int32 and affine16: every prefix exact, in the words' order. Over the
// host's threads: each range's product first, then each range checks its
// prefixes from the product of the ranges before it (both operators are
// associative).
Validation validate_exact(const Problem& p) {
  const bool affine = p.type == Type::affine16;
  const auto combine = [affine](std::uint32_t prefix, std::uint32_t w) {
    return affine ? agpu::affine_product(prefix, w) : prefix + w;
  };
  const std::uint32_t start = affine ? agpu::kAffineIdentity : 0;
  const unsigned threads = host_threads(p.n, kScanGrain);
  std::vector<std::uint32_t> product(threads, start);
  parallel_for(p.n, kScanGrain, [&](std::size_t begin, std::size_t end, unsigned t) {
    std::uint32_t running = start;
    for (std::size_t i = begin; i < end; ++i) running = combine(running, p.words[i]);
    product[t] = running;
  });
  std::vector<std::uint32_t> before(threads, start);  // the product of the ranges before t
  for (unsigned t = 1; t < threads; ++t) before[t] = combine(before[t - 1], product[t - 1]);
  std::vector<std::size_t> first_wrong(threads, p.n);
  std::vector<std::uint32_t> want(threads, 0);
  parallel_for(p.n, kScanGrain, [&](std::size_t begin, std::size_t end, unsigned t) {
    std::uint32_t running = before[t];
    for (std::size_t i = begin; i < end; ++i) {
      running = combine(running, p.words[i]);
      if (p.out[i] != running) {
        first_wrong[t] = i;
        want[t] = running;
        return;
      }
    }
  });
  Validation r;
  r.checked = p.n;
  r.tolerance = 0;
  const auto t =
      unsigned(std::min_element(first_wrong.begin(), first_wrong.end()) - first_wrong.begin());
  r.ok = first_wrong[t] == p.n;
  r.max_rel_err = r.ok ? 0.0 : 1.0;
  if (!r.ok) {
    const std::size_t i = first_wrong[t];
    char buf[128];
    if (affine)
      std::snprintf(buf, sizeof buf,
                    "out[%zu]: got 0x%08x, want 0x%08x (affine16 product in order; the first "
                    "wrong)",
                    i, unsigned(p.out[i]), unsigned(want[t]));
    else
      std::snprintf(buf, sizeof buf, "out[%zu]: got %d, want %d (mod 2^32; the first wrong)", i,
                    int(p.out[i]), int(want[t]));
    r.where = buf;
  }
  return r;
}

float value(std::uint32_t w) {
  float x;
  std::memcpy(&x, &w, sizeof x);
  return x;
}
}  // namespace

// float: each prefix within gamma(d) of the double prefix sum, relative to
// the prefix sum of |x|. Over the host's threads as validate_exact: each
// range's sums first, then each range checks from the sums before it (in
// double, the reference differs from one summed in order by far less than
// gamma). The worst element is the first of the largest errors.
Validation validate(const Problem& p, const Variant& v) {
  if (p.type != Type::f32) return validate_exact(p);
  const int d = summation_depth(v, p.n);
  const double u = std::ldexp(1.0, -24);
  const double gamma = d * u / (1 - d * u);
  const unsigned threads = host_threads(p.n, kScanGrain);
  std::vector<double> sums(threads, 0), magnitudes(threads, 0);
  parallel_for(p.n, kScanGrain, [&](std::size_t begin, std::size_t end, unsigned t) {
    // Summed in locals and stored once: threads that write neighbouring
    // elements of one vector at every word fight over its cache lines.
    double sum = 0, magnitude = 0;
    for (std::size_t i = begin; i < end; ++i) {
      sum += value(p.words[i]);
      magnitude += std::fabs(value(p.words[i]));
    }
    sums[t] = sum;
    magnitudes[t] = magnitude;
  });
  struct Worst {
    double err = -HUGE_VAL;
    std::size_t at = 0;
    double want = 0;
  };
  std::vector<Worst> worst(threads);
  parallel_for(p.n, kScanGrain, [&](std::size_t begin, std::size_t end, unsigned t) {
    double sum = 0, magnitude = 0;
    for (unsigned before = 0; before < t; ++before) {
      sum += sums[before];
      magnitude += magnitudes[before];
    }
    Worst w;
    for (std::size_t i = begin; i < end; ++i) {
      sum += value(p.words[i]);
      magnitude += std::fabs(value(p.words[i]));
      double e = std::fabs(double(value(p.out[i])) - sum) / std::max(magnitude, 1e-300);
      if (std::isnan(e)) e = INFINITY;
      if (i == begin || e > w.err) w = {e, i, sum};
    }
    worst[t] = w;
  });
  Validation r;
  r.checked = p.n;
  r.tolerance = gamma;
  Worst all;
  bool found = false;
  for (unsigned t = 0; t < threads; ++t)
    if (chunk_begin(p.n, threads, t) < chunk_begin(p.n, threads, t + 1) &&
        (!found || worst[t].err > all.err)) {
      all = worst[t];
      found = true;
    }
  if (found) {
    r.max_rel_err = all.err;
    char buf[128];
    std::snprintf(buf, sizeof buf, "out[%zu]: got %.9g, want %.9g (error / prefix sum|x|)", all.at,
                  double(value(p.out[all.at])), all.want);
    r.where = buf;
  }
  r.ok = r.max_rel_err <= gamma;
  return r;
}

std::vector<std::size_t> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {std::size_t(1) << 20};
  if (size == SizePreset::large)
    return {std::size_t(1) << 24, std::size_t(1) << 28, std::size_t(1) << 30};
  return {std::size_t(1) << 16, std::size_t(1) << 20, std::size_t(1) << 24, std::size_t(1) << 28};
}

std::vector<int> preset_alphas(SizePreset size) {
  if (size == SizePreset::quick) return {8};
  return {1, 2, 4, 8, 16, 32};
}

namespace {

class Scan : public Workload {
 public:
  std::string name() const override { return "scan"; }

  // --tune (tune_family.h): each API's scans of one type and n, alpha (words
  // a thread) free; a poll:spin row is a form of its own, not a candidate.
  // onepass-regcap64 is OpenCL's onepass with a build option an OpenCL user
  // has. CUB is a vendor library.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const std::vector<std::string> scans{"alpha", "lookback", "onepass"};
    static const std::vector<std::string> opencl{"alpha", "lookback", "onepass", kOnepassRegcap64};
    static const TuneRule rule{{"type", "n"}, {"alpha"}, {{"", scans, opencl}}};
    return tune_family_by_rule(row, rule);
  }

  void add_options(CLI::App& app) override {
    agpu::add_word_options(app, "scan", sizes_, types_);
    add_checked_list_option(
        app, "--scan-alpha",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            alphas_.push_back(int(parse_int(text, "--scan-alpha", {1, kMaxAlpha})));
        },
        "scan: words per thread of the alpha, lookback and onepass rows (comma-separated, 1.." +
            std::to_string(kMaxAlpha) + "), overriding --size")
        ->type_name("LIST");
    add_two_word_list_option(
        app, "--scan-poll", "wait", "spin", "poll", polls_,
        "scan, onepass: how its look-back polls a predecessor's status: wait (sleep between "
        "polls, default) and/or spin (no sleep; rows named .../poll:spin)");
    add_two_word_list_option(
        app, "--scan-load", "each", "batched", "load order", loads_,
        "scan, alpha: how a thread stages its tile words in shared memory: each (loaded and "
        "stored in turn, as written, default) and/or batched (all loaded into registers before "
        "the first store; alpha 8, 16 and 32; rows named .../load:batched)");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<std::size_t> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    std::vector<Type> types = types_;
    if (types.empty()) types = {Type::int32, Type::f32};
    std::vector<int> alphas = alphas_;
    if (alphas.empty()) alphas = preset_alphas(opts.size);
    std::vector<bool> polls = polls_;
    if (polls.empty()) polls = {false};
    std::vector<bool> loads = loads_;
    if (loads.empty()) loads = {false};
    for (Type t : types)
      for (std::size_t n : sizes)
        for (const Runners::Row& row : runners().rows()) {
          const bool has_alpha = row.variant.name != "cub";
          for (int a : has_alpha ? alphas : std::vector<int>{0})
            for (bool spin : row.variant.name == "onepass" ? polls : std::vector<bool>{false})
              for (bool batched : row.variant.name == "alpha" ? loads : std::vector<bool>{false}) {
                Variant v = row.variant;
                v.alpha = a;
                v.spin = spin;
                v.batched = batched;
                BenchName name{"scan",
                               row.api,
                               v.name,
                               {{"type", agpu::to_string(t)}, {"n", std::to_string(n)}}};
                if (has_alpha) name.params.push_back({"alpha", std::to_string(a)});
                if (spin) name.params.push_back({"poll", "spin"});
                if (batched) name.params.push_back({"load", "batched"});
                add(name, apis, opts, row, v, n, t);
              }
        }
  }

 private:
  void add(const BenchName& name, const ApiSet& apis, const Options& opts, const Runners::Row& row,
           const Variant& v, std::size_t n, Type t) {
    const auto prepare = [this, n, t, row, v, name](const DeviceInfo& dev) {
      if (is_onepass(v) && !onepass_has_alpha(v.alpha))
        throw Unavailable(
            "onepass is compiled for alpha 4, 8, 16 and 32 only (whole 16-byte "
            "vectors a thread), not " +
            std::to_string(v.alpha));
      if (v.batched && !batched_has_alpha(v.alpha))
        throw Unavailable("batched loads are compiled for alpha 8, 16 and 32 only, not " +
                          std::to_string(v.alpha));
      Problem& p = problems_.get({n, int(t)}, [n, t] { return scan::make_problem(n, t); });
      const double bytes = 2.0 * 4.0 * double(n);
      // Look-back forms: the tile status cleared, then one kernel; alpha: its
      // three kernels; CUB's dispatch is not counted (0: no launch-bound mark).
      const int commands = v.name == "cub" ? 0 : has_tile_status(v) ? 2 : 3;
      return MeasuredRow(name)
          .runner(row.make(p, v))
          .rate(RateUnit::GBps, bytes, dev.dram_peak_gbps)
          // one sum a word (int32, affine16: no floating-point flop)
          .roofline(t == Type::f32 ? double(n) : 0.0, bytes)
          .clear_output([&p] { fill_parallel(p.out, 0xffffffffU); })
          .validate([&p, v] { return validate(p, v); })
          .commands_per_launch(commands)
          .prepared();
    };
    register_measured(name, apis, opts, prepare, /*startup=*/false);
  }

  std::vector<std::size_t> sizes_;  // empty: not given (the preset's)
  std::vector<Type> types_;         // empty: both
  std::vector<int> alphas_;         // empty: the preset's
  std::vector<bool> polls_;         // onepass's rows: spin (true) or wait; empty: wait
  std::vector<bool> loads_;         // alpha's rows: batched (true) or each; empty: each
  LastProblem<std::pair<std::size_t, int>, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Scan>(); }

}  // namespace gpucmp::scan

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(scan, 160, gpucmp::scan::make_workload);
