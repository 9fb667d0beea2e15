#include "ceiling.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../rng.h"
#include "../../workload_registry.h"

namespace gpucmp::ceiling {

namespace {
constexpr std::string_view kSpinPrefix = "launch-spin-";
}

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = [] {
    std::vector<Variant> all = {{"fma"},    {"shared"},      {"l2"},
                                {"launch"}, {"launch-grid"}, {"launch-args"}};
    for (int s : kSpinSteps) all.push_back({std::string(kSpinPrefix) + std::to_string(s)});
    return all;
  }();
  return v;
}

int spin_steps(std::string_view name) {
  if (name.substr(0, kSpinPrefix.size()) != kSpinPrefix) return 0;
  const std::string_view digits = name.substr(kSpinPrefix.size());
  if (digits.empty() || digits.front() == '0') return 0;
  int steps = 0;
  const char* end = digits.data() + digits.size();
  const auto parsed = std::from_chars(digits.data(), end, steps);
  if (parsed.ec != std::errc() || parsed.ptr != end) return 0;
  for (int s : kSpinSteps)
    if (s == steps) return s;
  return 0;
}

int spin_steps(const Variant& v) { return spin_steps(std::string_view(v.name)); }

Runners& runners() {
  static Runners table("ceiling", variants());
  return table;
}

Problem make_problem(int compute_units) {
  Problem p;
  p.blocks = std::max(compute_units, 1) * kBlocksPerUnit;
  p.words.resize(kL2Words);
  Rng rng(0x63656c6cULL);
  for (auto& w : p.words) w = std::uint32_t(rng.next());
  p.out.assign(p.threads(), 0xffffffffU);
  return p;
}

bool one_block(const Variant& v) {
  return v.name == "launch" || v.name == "launch-args" || v.name == kLaunchArgsOnce ||
         spin_steps(v) > 0;
}

int grid_blocks(const Variant& v, const Problem& p) { return one_block(v) ? 1 : p.blocks; }

double counted_work(const Variant& v, const Problem& p) {
  const auto threads = double(p.threads());
  if (one_block(v)) return kBlock * 4.0;
  if (v.name == "launch-grid") return threads * 4.0;
  if (v.name == "fma") return threads * kChains * kFmaSteps * 2.0;
  if (v.name == "shared") return threads * kSharedSteps * 16.0;
  return double(kL2Passes) * kL2Words * 4.0;
}

std::uint32_t shared_word(int k) { return std::uint32_t(k) * 2654435761U; }

std::size_t sampled_threads(const Variant& v, const Problem& p) {
  if (one_block(v)) return std::size_t(kBlock);
  if (v.name == "launch-grid") return p.threads();
  return std::min<std::size_t>(kChecked, p.threads());
}

std::size_t sampled_thread(const Variant& v, const Problem& p, std::size_t k) {
  return one_block(v) ? k : k * p.threads() / sampled_threads(v, p);
}

float chain_start(std::size_t thread, int j) {
  return float(thread % 1024) * 0.0009765625f + float(j) * 0.125f;
}

namespace {

std::uint32_t expected(const Problem& p, const Variant& v, std::size_t t) {
  const std::size_t tx = t % kBlock;
  if (v.name == "fma") {
    float a[kChains];
    for (int j = 0; j < kChains; ++j) a[j] = chain_start(t, j);
    for (int s = 0; s < kFmaSteps; ++s)
      for (float& x : a) x = std::fma(x, kFmaScale, kFmaAdd);
    float sum = 0;
    for (float x : a) sum += x;
    std::uint32_t bits;
    std::memcpy(&bits, &sum, sizeof bits);
    return bits;
  }
  if (const int steps = spin_steps(v); steps > 0) {
    float a = chain_start(t, 0);
    for (int s = 0; s < steps; ++s) a = std::fma(a, kFmaScale, kFmaAdd);
    std::uint32_t bits;
    std::memcpy(&bits, &a, sizeof bits);
    return bits;
  }
  if (v.name == "launch" || v.name == "launch-grid") return shared_word(int(t));
  if (v.name == "launch-args" || v.name == kLaunchArgsOnce)
    return shared_word(int(t)) + args_word_offset();
  std::uint32_t sum = 0;
  if (v.name == "shared") {
    constexpr int kVectors = kSharedWords / 4;
    for (int r = 0; r < kSharedSteps; ++r) {
      const int q = int((tx + std::size_t(r) * kBlock) % kVectors);
      for (int c = 0; c < 4; ++c) sum += shared_word(4 * q + c);
    }
    return sum;
  }
  constexpr std::size_t kVectors = kL2Words / 4;
  for (int pass = 0; pass < kL2Passes; ++pass)
    for (std::size_t q = t; q < kVectors; q += p.threads()) {
      const std::size_t shifted = (q + std::size_t(pass) * kBlock) % kVectors;
      for (int c = 0; c < 4; ++c) sum += p.words[4 * shifted + c];
    }
  return sum;
}

float as_float(std::uint32_t w) {
  float x;
  std::memcpy(&x, &w, sizeof x);
  return x;
}

}  // namespace

Validation validate(const Problem& p, const Variant& v) {
  const std::size_t checked = sampled_threads(v, p);
  const auto thread = [&](std::size_t k) { return sampled_thread(v, p, k); };
  const bool fma = v.name == "fma";
  const bool floats = fma || spin_steps(v) > 0;  // results are float bits
  return check_elements(
      checked, fma ? std::ldexp(1.0, -20) : 0.0,
      [&](std::size_t k) {
        const std::size_t t = thread(k);
        const std::uint32_t want = expected(p, v, t);
        if (!fma) return p.out[t] == want ? 0.0 : 1.0;
        return std::fabs(double(as_float(p.out[t])) - as_float(want)) /
               std::max(1.0, std::fabs(double(as_float(want))));
      },
      [&](std::size_t k) {
        const std::size_t t = thread(k);
        char buf[128];
        if (floats)
          std::snprintf(buf, sizeof buf, "thread %zu: got %.9g, want %.9g", t,
                        double(as_float(p.out[t])), double(as_float(expected(p, v, t))));
        else
          std::snprintf(buf, sizeof buf, "thread %zu: got %u, want %u (mod 2^32)", t, p.out[t],
                        expected(p, v, t));
        return std::string(buf);
      });
}

namespace {

class Ceiling : public Workload {
 public:
  std::string name() const override { return "ceiling"; }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    for (const Runners::Row& row : runners().rows()) {
      const BenchName name{"ceiling", row.api, row.variant.name, {}};
      const auto prepare = [this, row, name](const DeviceInfo& dev) {
        const int units = dev.compute_units;
        Problem& p = problems_.get(units, [units] { return make_problem(units); });
        const bool fma = row.variant.name == "fma";
        return MeasuredRow(name)
            .runner(row.make(p, row.variant))
            .rate(fma ? RateUnit::GFLOPs : RateUnit::GBps, counted_work(row.variant, p),
                  fma ? dev.fp32_peak_gflops : 0.0)
            .clear_output([&p] { fill_parallel(p.out, 0xffffffffU); })
            .validate([&p, v = row.variant] { return validate(p, v); })
            .prepared();
      };
      register_measured(name, apis, opts, prepare, /*startup=*/false);
    }
  }

 private:
  LastProblem<int, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Ceiling>(); }

}  // namespace gpucmp::ceiling

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(ceiling, 70, gpucmp::ceiling::make_workload);
