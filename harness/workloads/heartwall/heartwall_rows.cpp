// heartwall's rows: heartwall/<api>/base/frames:N/layout:<layout> per frame
// count and layout, and, as LavaMD's layout rows have them, the conversion of
// its per-point state between layouts: layoutconv/<api>/base/records:51/
// words:2605/from:aos/to:soa and back, made by layoutconv's own runners
// (layoutconv.h) so that the report's conversion table carries them.
// --heartwall-write-rodinia DIR writes the rows' sequence as Rodinia's files,
// and the CPU reference's track as Rodinia's result.txt, instead of a run
// (scripts/rodinia_heartwall.py runs Rodinia's own programs on them).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <utility>

#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../workload_registry.h"
#include "../layout/layoutconv.h"
#include "heartwall.h"
#include "rodinia_files.h"

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

  // --tune (tune_family.h): each API's tracking at one frame count, the
  // per-point state's layout free.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const std::vector<std::string> kernels{"base"};
    static const TuneRule rule{{"frames"}, {"layout"}, {{"", kernels, kernels}}};
    return tune_family_by_rule(row, rule);
  }

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
    add_checked_option(
        app, "--heartwall-write-rodinia",
        [this](const std::string& dir) {
          check_output_directory(dir, "--heartwall-write-rodinia");
          rodinia_dir_ = dir;
        },
        "HeartWall: write the rows' sequence (seed " + std::to_string(kSeed) +
            ", as many frames as the longest row) as Rodinia 3.1's test.avi and input.txt, and "
            "the CPU reference's track as reference.txt (Rodinia's result.txt form), into this "
            "existing folder, then exit without running")
        ->type_name("DIR");
  }

  // The sequence of the rows' seed, as long as the longest row: Rodinia's
  // program reads the first N frames of it, the same frames a row of N tracks.
  bool write_requested_files(const Options& opts) override {
    if (rodinia_dir_.empty()) return false;
    const std::vector<int> frames = frames_.empty() ? preset_frames(opts.size) : frames_;
    const int longest = *std::max_element(frames.begin(), frames.end());
    const Sequence seq = make_sequence(longest, kSeed);
    const std::string avi = rodinia_dir_ + "/test.avi", txt = rodinia_dir_ + "/input.txt";
    const std::string ref = rodinia_dir_ + "/reference.txt";
    write_rodinia_avi(seq, avi);
    write_rodinia_input_txt(seq, txt);
    write_rodinia_result_txt(track(seq, longest), longest, kEndoPoints, ref);
    std::cout << "heartwall: wrote " << avi << " (" << longest << " frames, seed " << kSeed << "), "
              << txt << " and " << ref << " (the CPU reference's track)\n";
    return true;
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
  std::string rodinia_dir_;  // --heartwall-write-rodinia; empty: not given
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
