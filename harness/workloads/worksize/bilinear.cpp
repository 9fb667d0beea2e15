#include "bilinear.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "../../local_rows.h"
#include "../../rng.h"
#include "../../split_rows.h"
#include "../../workload_registry.h"

namespace gpucmp::bilinear {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base", LocalShape{}, Part{}}};
  return v;
}

Runners& runners() {
  static Runners table("bilinear", variants());
  return table;
}

Problem make_problem(int out) {
  Problem p;
  p.out_w = p.out_h = out;
  p.in_w = p.in_h = out / 2;
  p.scale_x = float(p.in_w) / float(p.out_w);
  p.scale_y = float(p.in_h) / float(p.out_h);
  p.in.resize(std::size_t(p.in_w) * p.in_h);
  p.out.assign(std::size_t(p.out_w) * p.out_h, NAN);
  Rng rng(0x62696c696eULL ^ std::uint64_t(out));
  for (auto& v : p.in) v = rng.uniform(0, 1);
  return p;
}

float source_coord(int i, float scale, int in) {
  const float s = (float(i) + 0.5f) * scale - 0.5f;
  return std::min(std::max(s, 0.0f), float(in - 1));
}

double reference_pixel(const Problem& p, int x, int y) {
  const float sx = source_coord(x, p.scale_x, p.in_w);
  const float sy = source_coord(y, p.scale_y, p.in_h);
  const int x0 = int(std::floor(sx)), y0 = int(std::floor(sy));
  const int x1 = std::min(x0 + 1, p.in_w - 1), y1 = std::min(y0 + 1, p.in_h - 1);
  const auto fx = double(sx - float(x0));
  const auto fy = double(sy - float(y0));
  const auto at = [&p](int row, int col) { return double(p.in[std::size_t(row) * p.in_w + col]); };
  const double top = (1 - fx) * at(y0, x0) + fx * at(y0, x1);
  const double bottom = (1 - fx) * at(y1, x0) + fx * at(y1, x1);
  return (1 - fy) * top + fy * bottom;
}

double tolerance() { return std::ldexp(1.0, -20); }

Validation validate(const Problem& p) {
  const auto w = std::size_t(p.out_w);
  const auto ref = [&p, w](std::size_t e) { return reference_pixel(p, int(e % w), int(e / w)); };
  return check_elements(
      p.out.size(), tolerance(), [&](std::size_t e) { return std::fabs(p.out[e] - ref(e)); },
      [&](std::size_t e) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "out[%zu,%zu]: got %.9g, want %.9g", e / w, e % w,
                      double(p.out[e]), ref(e));
        return std::string(buf);
      });
}

double counted_bytes(const Problem& p) {
  return 4.0 * (double(p.out_w) * p.out_h + double(p.in_w) * p.in_h);
}

std::vector<int> preset_sizes(SizePreset size) {
  if (size == SizePreset::quick) return {256};
  return {1024};
}

GlobalSize global_size(int out) { return GlobalSize{2, out, out}; }

Rect out_rect(const Problem& p, const Part& part) { return part_rect(part, p.out_w, p.out_h); }

Rect in_rect(const Problem& p, const Part& part) {
  const Rect out = out_rect(p, part);
  Rect in{0, 0, p.in_w, p.in_h};
  if (part.whole() || out.empty()) return out.empty() ? Rect{} : in;
  const bool rows = part.axis == SplitAxis::y;
  const float scale = rows ? p.scale_y : p.scale_x;
  const int extent = rows ? p.in_h : p.in_w;
  const long long first = rows ? out.y : out.x;
  const long long last = first + (rows ? out.h : out.w) - 1;
  const auto floor_of = [&](long long i) {
    return static_cast<long long>(std::floor(source_coord(int(i), scale, extent)));
  };
  const long long lo = floor_of(first);
  const long long hi = std::min<long long>(extent - 1, floor_of(last) + 1);
  if (rows) {
    in.y = lo;
    in.h = hi - lo + 1;
  } else {
    in.x = lo;
    in.w = hi - lo + 1;
  }
  return in;
}

std::vector<PartTransfer> part_io(Problem& p, const Part& part) {
  return {{host_array(p.in, p.in_w), in_rect(p, part), false},
          {host_array(p.out, p.out_w), out_rect(p, part), true}};
}

namespace {
class Bilinear : public Workload {
 public:
  std::string name() const override { return "bilinear"; }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--bilinear-out",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            sizes_.push_back(int(parse_int(text, "--bilinear-out", {kMinOut, kMaxOut, kMultiple})));
        },
        "bilinear output sides (square, comma-separated multiples of 16 in 16..16384; the "
        "input is half as wide), overriding --size")
        ->type_name("N");
    local_.add_to(app);
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<int> sizes = sizes_;
    if (sizes.empty()) sizes = preset_sizes(opts.size);
    for (int out : sizes) {
      const GlobalSize global = global_size(out);
      const std::function<Problem&()> problem = [this, out]() -> Problem& {
        return problems_.get(out, [out] { return make_problem(out); });
      };
      const auto describe = [](Measurement& m, Problem& p, const DeviceInfo& dev) {
        m.unit = RateUnit::GBps;
        m.work_per_launch = counted_bytes(p);
        // 9 flop a pixel: two row blends and a column blend, 2 products and 1 sum each.
        m.roofline_flop = 9.0 * double(p.out_w) * p.out_h;
        m.roofline_bytes = counted_bytes(p);
        m.peak = dev.dram_peak_gbps;
        m.clear_output = [&p] { std::fill(p.out.begin(), p.out.end(), NAN); };
        m.validate = [&p] { return validate(p); };
      };
      const std::vector<Param> params{{"in", std::to_string(out / 2)},
                                      {"out", std::to_string(out)}};
      register_local_rows<Problem, Variant>(runners(), params, global, local_, opts, apis, problem,
                                            describe);
      register_split_rows<Problem, Variant>(runners(), params, global, local_, opts, apis, problem,
                                            describe, part_io, kSplitLaunches);
    }
  }

 private:
  std::vector<int> sizes_;  // empty: not given (the preset's)
  LocalOption local_{"bilinear", 2};
  LastProblem<int, Problem> problems_;
};
}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Bilinear>(); }

}  // namespace gpucmp::bilinear

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(bilinear, 90, gpucmp::bilinear::make_workload);
