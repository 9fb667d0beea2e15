#include "layoutconv.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../rng.h"
#include "../../workload_registry.h"
#include "lavamd.h"

namespace gpucmp::layoutconv {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base"}};
  return v;
}

Runners& runners() {
  static Runners table("layoutconv", variants());
  return table;
}

std::vector<std::pair<layout::Layout, layout::Layout>> pairs() {
  using layout::Layout;
  return {{Layout::aos, Layout::soa},
          {Layout::soa, Layout::aos},
          {Layout::aos, Layout::aosoa},
          {Layout::aosoa, Layout::aos}};
}

Problem make_problem(std::size_t records, int words, layout::Layout from, layout::Layout to) {
  Problem p;
  p.records = records;
  p.words = words;
  p.from = from;
  p.to = to;
  const std::size_t n = records * std::size_t(words);
  p.src.resize(n);
  Rng rng(0x636f6e76ULL ^ n);
  for (float& x : p.src) x = rng.uniform(-1, 1);
  p.expected.resize(n);
  std::vector<double> ms;
  for (int k = 0; k < 3; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    layout::convert(p.src.data(), from, p.expected.data(), to, records, words, kTile);
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  p.host_convert_ms = ms[1];
  p.dst.assign(n, NAN);
  return p;
}

namespace {
std::uint32_t bits(float x) {
  std::uint32_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
}  // namespace

Validation validate(const Problem& p) {
  return check_elements_parallel(
      p.dst.size(), 0.0,
      [&](std::size_t i) { return bits(p.dst[i]) == bits(p.expected[i]) ? 0.0 : INFINITY; },
      [&](std::size_t i) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "dst[%zu]: got %.9g, want %.9g", i, double(p.dst[i]),
                      double(p.expected[i]));
        return std::string(buf);
      });
}

namespace {

class LayoutConv : public Workload {
 public:
  std::string name() const override { return "layoutconv"; }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--layoutconv-boxes",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            boxes_.push_back(
                int(parse_int(text, "--layoutconv-boxes", {2, lavamd::kMaxBoxes1d, 2})));
        },
        "layoutconv: convert the records of LavaMD's particles at these boxes1d (even, 2..80), "
        "overriding --size")
        ->type_name("N");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<int> boxes = boxes_;
    if (boxes.empty()) boxes = lavamd::preset_sizes(opts.size);
    for (int b : boxes)
      for (int words : {4, 12})
        for (const auto& [from, to] : pairs()) {
          const std::size_t records =
              std::size_t(b) * std::size_t(b) * std::size_t(b) * lavamd::kParPerBox;
          for (const Runners::Row& row : runners().rows()) {
            const BenchName name{"layoutconv",
                                 row.api,
                                 row.variant.name,
                                 {{"records", std::to_string(records)},
                                  {"words", std::to_string(words)},
                                  {"from", to_string(from)},
                                  {"to", to_string(to)}}};
            const auto key = std::to_string(records) + "/" + std::to_string(words) + "/" +
                             to_string(from) + "/" + to_string(to);
            const auto prepare = [this, records, words, from = from, to = to, key, row,
                                  name](const DeviceInfo& dev) {
              Problem& p =
                  problems_.get(key, [&] { return make_problem(records, words, from, to); });
              const double bytes = 2.0 * sizeof(float) * double(p.dst.size());
              return MeasuredRow(name)
                  .runner(row.make(p, row.variant))
                  .rate(RateUnit::GBps, bytes, dev.dram_peak_gbps)
                  .roofline(0, bytes)  // no flop: a permutation
                  .clear_output([&p] { fill_parallel(p.dst, NAN); })
                  .validate([&p] { return validate(p); })
                  .counter("host_convert_ms", p.host_convert_ms)
                  .prepared();
            };
            register_measured(name, apis, opts, prepare, /*startup=*/false);
          }
        }
  }

 private:
  std::vector<int> boxes_;
  LastProblem<std::string, Problem> problems_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<LayoutConv>(); }

}  // namespace gpucmp::layoutconv

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(layoutconv, 130, gpucmp::layoutconv::make_workload);
