// heartwall's rows: heartwall/<api>/base/frames:N/layout:<layout> per frame
// count and layout, and, as LavaMD's layout rows have them, the conversion of
// its per-point state between layouts: layoutconv/<api>/base/records:51/
// words:2605/from:aos/to:soa and back, made by layoutconv's own runners
// (layoutconv.h) so that the report's conversion table carries them.
#include <CLI/CLI.hpp>
#include <cmath>
#include <utility>

#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../workload_registry.h"
#include "../layout/layoutconv.h"
#include "heartwall.h"

namespace gpucmp::heartwall {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"base"}};
  return v;
}

// Here, beside GPUCMP_WORKLOAD: the runners' references to this table link
// this file, and with it the workload's registration.
Runners& runners() {
  static Runners table("heartwall", variants());
  return table;
}

namespace {

class HeartWall : public Workload {
 public:
  std::string name() const override { return "heartwall"; }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--heartwall-frames",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            frames_.push_back(
                int(parse_int(text, "--heartwall-frames", {kMinFrames, kRodiniaFrames})));
        },
        "HeartWall: frames tracked per row, frame 0 included (comma-separated, " +
            std::to_string(kMinFrames) + ".." + std::to_string(kRodiniaFrames) +
            "; --size standard and large: 20 to 100 in steps of 20, quick: 2), overriding --size")
        ->type_name("N");
    layouts_.add_option(app, "--heartwall-layout", "HeartWall's per-point state layouts");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    std::vector<int> frames = frames_;
    if (frames.empty()) frames = preset_frames(opts.size);
    for (int f : frames)
      for (layout::Layout l : layouts_.rows())
        for (const Runners::Row& row : runners().rows()) register_row(opts, apis, f, l, row);
    register_conversions(opts, apis);
  }

 private:
  void register_row(const Options& opts, const ApiSet& apis, int frames, layout::Layout l,
                    const Runners::Row& row) {
    const BenchName name{"heartwall",
                         row.api,
                         row.variant.name,
                         {{"frames", std::to_string(frames)}, {"layout", to_string(l)}}};
    const auto prepare = [this, frames, l, row, name](const DeviceInfo& dev) {
      Problem& p = problems_.get(frames, [frames] { return make_problem(frames); });
      Variant v = row.variant;
      v.layout = l;
      const double flop = 2.0 * convolution_macs(p);
      // Each frame's upload, as floats, and each point's state read and written.
      const double bytes =
          double(p.frames) * (double(frame_elems()) + 2.0 * p.points * kStateWords) * 4.0;
      return MeasuredRow(name)
          .runner(row.make(p, v))
          .rate(RateUnit::GFLOPs, flop, dev.fp32_peak_gflops)
          .roofline(flop, bytes)
          .per_item(double(p.frames) * p.points, "ps_per_point_frame")
          .commands_per_launch(2 * p.frames)  // each frame: its upload, its kernel
          .clear_output([&p] {
            fill_parallel(p.track, -1);
            fill_parallel(p.state, NAN);
            fill_parallel(p.corr, NAN);
          })
          .validate([&p] { return validate(p); })
          .prepared();
    };
    register_measured(name, apis, opts, prepare, /*startup=*/false);
  }

  // The state's two conversions once, whatever the frame counts: 51 records
  // of kStateWords words.
  void register_conversions(const Options& opts, const ApiSet& apis) {
    const auto records = std::size_t(kEndoPoints) + std::size_t(kEpiPoints);
    for (const auto& [from, to] : {std::pair{layout::Layout::aos, layout::Layout::soa},
                                   std::pair{layout::Layout::soa, layout::Layout::aos}})
      for (const layoutconv::Runners::Row& row : layoutconv::runners().rows()) {
        const BenchName name{"layoutconv",
                             row.api,
                             row.variant.name,
                             {{"records", std::to_string(records)},
                              {"words", std::to_string(kStateWords)},
                              {"from", to_string(from)},
                              {"to", to_string(to)}}};
        const auto prepare = [this, from = from, to = to, row, name](const DeviceInfo& dev) {
          const int key = int(from) * 3 + int(to);
          layoutconv::Problem& p = conversions_.get(
              key, [&] { return layoutconv::make_problem(records, kStateWords, from, to); });
          const double bytes = 2.0 * sizeof(float) * double(p.dst.size());
          return MeasuredRow(name)
              .runner(row.make(p, row.variant))
              .rate(RateUnit::GBps, bytes, dev.dram_peak_gbps)
              .roofline(0, bytes)
              .clear_output([&p] { fill_parallel(p.dst, NAN); })
              .validate([&p] { return layoutconv::validate(p); })
              .counter("host_convert_ms", p.host_convert_ms)
              .prepared();
        };
        register_measured(name, apis, opts, prepare, /*startup=*/false);
      }
  }

  std::vector<int> frames_;  // empty: not given (the preset's)
  layout::LayoutAxis layouts_{{layout::Layout::aos, layout::Layout::soa},
                              "AoSoA's tiles of " + std::to_string(kDefaultTile) +
                                  " records do not divide HeartWall's 51 points"};
  LastProblem<int, Problem> problems_;
  LastProblem<int, layoutconv::Problem> conversions_;
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<HeartWall>(); }

}  // namespace gpucmp::heartwall

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run: after lavamd, the layout study's first kernel.
GPUCMP_WORKLOAD(heartwall, 125, gpucmp::heartwall::make_workload);
