#include "bandwidth.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "../../errors.h"
#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../workload_registry.h"

namespace gpucmp::bandwidth {

namespace {
constexpr std::uint32_t kPoison = 0xdeadbeefu;
constexpr std::size_t kWordGrain = std::size_t(1) << 18;  // words a thread takes at least
}  // namespace

const char* to_string(Direction d) {
  switch (d) {
    case Direction::h2d:
      return "h2d";
    case Direction::d2h:
      return "d2h";
    case Direction::d2d:
      return "d2d";
  }
  return "?";
}

const char* to_string(HostMemory m) {
  switch (m) {
    case HostMemory::pageable:
      return "pageable";
    case HostMemory::pinned:
      return "pinned";
    case HostMemory::mapped:
      return "mapped";
    case HostMemory::device:
      return "device";
  }
  return "?";
}

std::string variant_name(Direction d, HostMemory m) {
  if (d == Direction::d2d) return "d2d";
  return std::string(to_string(d)) + "-" + to_string(m);
}

Variant variant(Direction d, HostMemory m) { return {variant_name(d, m), d, m}; }

const std::vector<Variant>& variants() {
  static const std::vector<Variant> shared = {
      variant(Direction::h2d, HostMemory::pageable), variant(Direction::h2d, HostMemory::pinned),
      variant(Direction::d2h, HostMemory::pageable), variant(Direction::d2h, HostMemory::pinned),
      variant(Direction::d2d, HostMemory::device)};
  return shared;
}

Runners& runners() {
  static Runners table("bandwidth", variants());
  return table;
}

Problem make_problem(std::size_t bytes) {
  Problem p;
  p.bytes = bytes;
  p.source.resize(bytes / 4);
  p.result.assign(bytes / 4, kPoison);
  // splitmix64 of the word index: seeded, and fast enough for 1 GiB.
  // Each word a function of its index alone: the same words on any number of threads.
  const std::uint64_t seed = 0x62616e64ULL ^ bytes;
  parallel_for(p.source.size(), kWordGrain, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t i = begin; i < end; ++i) {
      std::uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ULL;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      p.source[i] = std::uint32_t((z ^ (z >> 31)) >> 32);
    }
  });
  return p;
}

double counted_bytes(Direction d, std::size_t bytes) {
  return d == Direction::d2d ? 2.0 * double(bytes) : double(bytes);
}

std::vector<std::size_t> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {1u << 10, 1u << 16, 1u << 20, 1u << 24};
  std::vector<std::size_t> sizes;
  for (std::size_t b = 1u << 10; b <= (std::size_t(1) << 30); b <<= 1) sizes.push_back(b);
  return sizes;
}

Validation validate(const Problem& p) {
  // Per thread: its range's wrong words and the first of them; the first of
  // all is the first range's that has one.
  const std::size_t words = p.source.size();
  std::vector<std::pair<std::size_t, std::size_t>> ranges(host_threads(words, kWordGrain),
                                                          {0, words});
  parallel_for(words, kWordGrain, [&](std::size_t begin, std::size_t end, unsigned t) {
    std::size_t count = 0, at = words;
    for (std::size_t i = begin; i < end; ++i)
      if (p.result[i] != p.source[i] && count++ == 0) at = i;
    ranges[t] = {count, at};
  });
  std::size_t wrong = 0, first = words;
  for (const auto& [count, at] : ranges) {
    wrong += count;
    first = std::min(first, at);
  }
  Validation v;
  v.checked = p.source.size();
  v.tolerance = 0;
  v.max_rel_err = v.checked ? double(wrong) / double(v.checked) : 0;
  v.ok = wrong == 0;
  if (wrong) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "word %zu of %zu differs: got 0x%08x, want 0x%08x", first,
                  v.checked, p.result[first], p.source[first]);
    v.where = buf;
  }
  return v;
}

namespace {
class Bandwidth : public Workload {
 public:
  std::string name() const override { return "bandwidth"; }

  // Each size is checked when parsed. The cap keeps a typo (1000G) from
  // allocating host memory it cannot have: source and result are host copies.
  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--bw-bytes",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items) {
            const long long b = parse_bytes(text, "--bw-bytes");
            if (b % 4 != 0)
              throw UsageError("--bw-bytes '" + text + "': not a multiple of 4 bytes");
            if (b > kMaxBytes) throw UsageError("--bw-bytes '" + text + "': at most 16G");
            sizes_.push_back(std::size_t(b));
          }
        },
        "bandwidth transfer sizes (e.g. 4K,1M,1G; multiples of 4, at most 16G), overriding "
        "--size")
        ->type_name("BYTES");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<std::size_t> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    // Size-major, so that consecutive benchmarks share one (possibly GiB) problem.
    for (std::size_t bytes : sizes)
      for (const Runners::Row& row : runners().rows()) register_one(bytes, row, opts, apis);
  }

 private:
  void register_one(std::size_t bytes, const Runners::Row& row, const Options& opts,
                    const ApiSet& apis) {
    const Direction direction = row.variant.direction;
    const BenchName name{
        "bandwidth", row.api, row.variant.name, {{"bytes", std::to_string(bytes)}}};
    const auto prepare = [this, bytes, row, direction, name](const DeviceInfo& dev) {
      Problem& p = problems_.get(bytes, [bytes] { return make_problem(bytes); });
      const double work = counted_bytes(direction, bytes);
      const bool d2d = direction == Direction::d2d;
      return MeasuredRow(name)
          .runner(row.make(p, row.variant))
          // The device copy is DRAM traffic (no flop); host transfers cross the
          // link instead: its peak, and no place on the roofline.
          .rate(RateUnit::GBps, work, d2d ? dev.dram_peak_gbps : dev.link_peak_gbps)
          .roofline(0, d2d ? work : 0)
          // A mapped transfer (OpenCL's own variant) maps and unmaps: two commands.
          .commands_per_launch(row.variant.memory == HostMemory::mapped ? 2 : 1)
          .clear_output([&p] { fill_parallel(p.result, kPoison); })
          .validate([&p] { return validate(p); })
          .prepared();
    };
    // Copies compile nothing: no startup benchmark.
    register_measured(name, apis, opts, prepare, /*startup=*/false);
  }

  static constexpr long long kMaxBytes = 16LL << 30;
  std::vector<std::size_t> sizes_;  // empty: not given (the preset's)
  LastProblem<std::size_t, Problem> problems_;
};
}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Bandwidth>(); }

}  // namespace gpucmp::bandwidth

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(bandwidth, 10, gpucmp::bandwidth::make_workload);
