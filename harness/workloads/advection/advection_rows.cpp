// The advection workload's rows (advection.h), one step per launch:
//   advection/<api>/<variant>/nx:N/ny:N
//     on one device;
//   .../gpus:G[/halo_steps:K]/exchange:<sync|overlap>/over:<transport>
//     the rows split in bands over G GPUs (halo_split.h) with
//     --advection-gpus G: over:mpi one MPI rank each (mpirun -np G ...
//     --split-over mpi); halo_steps:K (--advection-halo-steps K, K > 1):
//     2K halo rows traded every K steps, the rows next to the split
//     recomputed in between (absent: K = 1);
//     over:host, over:p2p, over:p2p-copy and over:context in this process,
//     one thread per GPU of the API's split group (--cuda-split-devices,
//     --cl-split-devices);
//   .../nx:N/ny:N/steps:S[/gpus:G/...]
//     a judged problem's full-length run, with --advection-problems: one
//     launch is all S steps.
// Every row reports output_digest (split_io.h), so that one and two GPUs
// or more GPUs are compared bit for bit.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "../../device_group.h"
#include "../../errors.h"
#include "../../grouped_runner.h"
#include "../../measured_row.h"
#include "../../parallel_for.h"
#include "../../split_executor.h"
#include "../../split_io.h"
#include "advection.h"

namespace gpucmp::advection {

const std::vector<JudgedProblem>& judged_problems() {
  static const std::vector<JudgedProblem> p = {{2048, 2048, 20480},
                                               {4096, 4096, 10240},
                                               {4096, 4096, 10240},
                                               {16384, 4096, 4096},
                                               {8192, 16384, 2048}};
  return p;
}

namespace {

std::pair<int, int> parse_grid(const std::string& text, const std::string& what) {
  const std::string rule =
      ": not a grid NXxNY of multiples of 64, each at most 32768, at most 2^27 cells (e.g. "
      "4096x4096)";
  const auto x = text.find('x');
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 6 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (x == std::string::npos || !digits(text.substr(0, x)) || !digits(text.substr(x + 1)))
    throw UsageError(what + " " + text + rule);
  const long long nx = std::stoll(text.substr(0, x)), ny = std::stoll(text.substr(x + 1));
  check_grid(nx, ny, what);
  return {int(nx), int(ny)};
}

// One configuration of rows: a grid, and the steps of one launch (1, or a
// judged problem's all).
struct Config {
  int nx = 0, ny = 0, steps = 1;
};

std::vector<PartTransfer> own_rows(Problem& p, const Part& part) {
  const Rect rect = part.whole() ? Rect{0, 0, p.nx, p.ny} : Rect{0, part.first, p.nx, part.count};
  return {{host_array(p.out, p.nx), rect, /*output=*/true}};
}

class Advection : public Workload {
 public:
  std::string name() const override { return "advection"; }

  // --tune (tune_family.h): every own step kernel on one grid and steps a
  // launch, the same on both APIs, and OpenCL's ring-vec4 source form. Not OpenCL's async-cpasync:
  // its copy is CUDA's cp.async written into OpenCL as inline PTX, a cross-run, as in
  // scripts/gpucmp_report/api_best.py. async-maxl1 is a control; split rows
  // (gpus:...) are not candidates.
  std::optional<TuneFamily> tune_family(const BenchName& row) const override {
    static const std::vector<std::string> own{"blocked", "branchy", "plain", "weights",
                                              "stream",  "async",   "ring"};
    static const std::vector<std::string> opencl_own = [] {
      std::vector<std::string> v = own;
      v.emplace_back(kRingVec4);
      return v;
    }();
    static const TuneRule rule{{"nx", "ny", "steps"}, {}, {{"", own, opencl_own}}};
    return tune_family_by_rule(row, rule);
  }

  void add_options(CLI::App& app) override {
    add_checked_list_option(
        app, "--advection-grid",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items) grids_.push_back(parse_grid(text, "--advection-grid"));
        },
        "advection: grids NXxNY (comma-separated; multiples of 64, each at most 32768, at most "
        "2^27 cells), overriding --size")
        ->type_name("LIST");
    add_checked_list_option(
        app, "--advection-problems",
        [this](const std::vector<std::string>& items) {
          for (const auto& text : items)
            problems_.push_back(int(parse_int(text, "--advection-problems", {1, 5})));
        },
        "advection: the judged problems 1..5 run at full length, one launch being all their "
        "steps (overriding --size)")
        ->type_name("LIST");
    add_checked_list_option(
        app, "--advection-gpus",
        [this](const std::vector<std::string>& items) {
          gpus_.clear();
          for (const auto& text : items)
            gpus_.push_back(int(parse_int(text, "--advection-gpus", {1, kMaxGpus})));
        },
        "advection: GPU counts 1.." + std::to_string(kMaxGpus) +
            " (default 1); G > 1: the rows split in bands over G GPUs (--advection-over: one "
            "MPI rank each under mpirun -np G ... --split-over mpi, else one thread each)")
        ->type_name("LIST");
    add_checked_list_option(
        app, "--advection-halo-steps",
        [this](const std::vector<std::string>& items) {
          halo_steps_given_ = true;
          halo_steps_.clear();
          for (const auto& text : items)
            halo_steps_.push_back(
                int(parse_int(text, "--advection-halo-steps", {1, kMaxHaloSteps})));
        },
        "advection, several GPUs: steps from one halo exchange to the next, 1.." +
            std::to_string(kMaxHaloSteps) +
            " (default 1); K: 2K halo rows each way every K steps, the rows next to the split "
            "recomputed in between (rows halo_steps:K)")
        ->type_name("LIST");
    add_checked_list_option(
        app, "--advection-exchange",
        [this](const std::vector<std::string>& items) {
          exchange_given_ = true;
          exchanges_.clear();
          for (const auto& text : items)
            exchanges_.push_back(parse_exchange(text, "--advection-exchange"));
        },
        "advection, several GPUs: sync (after each step) and/or overlap (during the interior; "
        "default both)")
        ->type_name("LIST");
    add_checked_list_option(
        app, "--advection-over",
        [this](const std::vector<std::string>& items) {
          over_given_ = true;
          overs_.clear();
          for (const auto& text : items)
            overs_.push_back(parse_transport(text, "--advection-over"));
        },
        "advection, several GPUs: how the halos travel: mpi (one rank per GPU, under mpirun with "
        "--split-over mpi; the default there), host, p2p, p2p-copy and/or context (one process, "
        "a thread per GPU of the split group; the default without --split-over mpi)")
        ->type_name("LIST");
    app.add_option_function<std::string>(
           "--advection-graph",
           [this](const std::string& v) {
             graph_given_ = true;
             graph_ = v == "on";
           },
           "advection, several GPUs, CUDA: replay each step from a CUDA graph captured once "
           "(on, default) or enqueue it call by call (off)")
        ->check(CLI::IsMember({"on", "off"}))
        ->type_name("on|off");
  }

  void add_context(ContextList& ctx) const override {
    ctx.emplace_back("advection.flow",
                     "solid-body rotation about ((nx-1)/2, (ny-1)/2), counter-clockwise: u = "
                     "-omega (y - yc), v = omega (x - xc) cells per step, omega = " +
                         std::to_string(kCourant) + " / max(xc, yc) (|u|, |v| <= " +
                         std::to_string(kCourant) + " cells per step)");
    ctx.emplace_back("advection.initial",
                     "Gaussian of peak 1, sigma = min(nx, ny) / 16, centred at (xc + min(nx, "
                     "ny) / 4, yc); the outer 2 cells on every side keep their initial values");
    ctx.emplace_back("advection.launch",
                     "one step (double-buffered f, FP32); a steps:S row, all S steps");
    ctx.emplace_back(
        "advection.split",
        "gpus:G rows: rows split in G bands at 64 floor(i ny / (64 G)) (two: "
        "64 floor(ny / 128)), 2 halo rows each way per step (halo_steps:K: 2K every K "
        "steps, the rows next to the split recomputed in between); over:mpi one MPI rank "
        "per GPU (CUDA: NCCL; OpenCL: staged through "
        "the host, MPI), timed on rank 0's clock between barriers; over:host "
        "(staged through host memory), over:p2p (CUDA: the kernels store the edge "
        "rows into the neighbour's buffer too) and over:p2p-copy (CUDA: "
        "cudaMemcpyPeerAsync into it) and over:context (OpenCL: one context over "
        "the GPUs, the edge rows copied between their buffers by clEnqueueCopyBuffer) "
        "one process, a thread per GPU, the peers' streams or queues ordered by events, "
        "the host threads meeting on each step that exchanges; "
        "timed on the host's "
        "clock from before every part's batch to after the last; the edge rows "
        "computed on the exchange's own stream (CUDA, highest priority) or queue "
        "(OpenCL), beside the interior");
    ctx.emplace_back("advection.cuda_two_gpu_launch",
                     graph_ ? "graph: every step after the first two replayed from a CUDA graph "
                              "of the step (kernels, NCCL send/receive, stream order)"
                            : "eager: every step enqueued call by call");
  }

  void register_benchmarks(const Options& opts, const ApiSet& apis) override {
    // Options of the two-GPU rows alone: without them, refused (they would
    // change nothing), as every option that has no effect in the run.
    const bool two = has_split_rows();
    if (!two && (exchange_given_ || graph_given_ || over_given_ || halo_steps_given_))
      throw UsageError(std::string(exchange_given_     ? "--advection-exchange"
                                   : graph_given_      ? "--advection-graph"
                                   : halo_steps_given_ ? "--advection-halo-steps"
                                                       : "--advection-over") +
                       ": no effect without the rows over several GPUs (--advection-gpus G, "
                       "G > 1)");
    const bool mpi = opts.split.over == SplitOver::mpi;
    if (!over_given_)
      overs_ = mpi ? std::vector<Transport>{Transport::mpi}
                   : std::vector<Transport>{Transport::host, Transport::p2p, Transport::p2p_copy,
                                            Transport::context};
    for (Transport t : overs_)
      if (in_process(t) == mpi)
        throw UsageError("--advection-over " + to_string(t) +
                         (mpi ? ": runs in one process, not under --split-over mpi"
                              : ": runs one MPI rank per GPU: mpirun -np G gpucmp-bench "
                                "--split-over mpi"));
    if (two && graph_given_ &&
        std::find(overs_.begin(), overs_.end(), Transport::mpi) == overs_.end())
      throw UsageError("--advection-graph: no effect without the rows over NCCL (over:mpi)");
    std::vector<Config> configs;
    for (const auto& [nx, ny] : grids_) configs.push_back({nx, ny, 1});
    for (int k : problems_) {
      const JudgedProblem& j = judged_problems().at(std::size_t(k - 1));
      const Config c{j.nx, j.ny, j.steps};
      if (std::none_of(configs.begin(), configs.end(), [&](const Config& o) {
            return o.nx == c.nx && o.ny == c.ny && o.steps == c.steps;
          }))
        configs.push_back(c);
    }
    if (configs.empty())
      for (const auto& [nx, ny] : preset_grids(opts.size)) configs.push_back({nx, ny, 1});
    for (const Config& c : configs)
      for (int gpus : gpus_)
        for (const Runners::Row& row : runners().rows()) {
          if (gpus == 1) {
            register_row(c, row, {}, opts, apis);
            continue;
          }
          for (int k : halo_steps_)
            for (Exchange e : exchanges_)
              for (Transport t : overs_) register_row(c, row, Split{gpus, k, e, t}, opts, apis);
        }
  }

  bool has_split_rows() const override {
    return std::any_of(gpus_.begin(), gpus_.end(), [](int g) { return g > 1; });
  }

 private:
  static constexpr int kMaxGpus = 16;
  static constexpr int kMaxHaloSteps = 16;

  // How a row over several GPUs splits: its GPU count, exchange order and
  // transport.
  struct Split {
    int gpus;
    int halo_steps;
    Exchange exchange;
    Transport over;
  };

  // A row on one device (`split` empty) or split over several GPUs.
  void register_row(const Config& c, const Runners::Row& row, std::optional<Split> split,
                    const Options& opts, const ApiSet& apis) {
    BenchName name{"advection",
                   row.api,
                   row.variant.name,
                   {{"nx", std::to_string(c.nx)}, {"ny", std::to_string(c.ny)}}};
    if (c.steps > 1) name.params.push_back({"steps", std::to_string(c.steps)});
    if (split) {
      name.params.push_back({"gpus", std::to_string(split->gpus)});
      if (split->halo_steps > 1)
        name.params.push_back({"halo_steps", std::to_string(split->halo_steps)});
      name.params.push_back({"exchange", to_string(split->exchange)});
      name.params.push_back({"over", to_string(split->over)});
      add_split_row(name.str(), [this, c, row, s = *split, graph = graph_, id = name.str()] {
        Problem& p = problem(c);
        SplitRow r;
        r.name = id;
        r.make = [&p, row, s, graph](int, const Part& part) {
          Variant v = row.variant;
          v.parts = s.gpus;
          v.halo_steps = s.halo_steps;
          v.part = part_index(split_rows(p.ny, s.gpus), part);
          v.exchange = s.exchange;
          v.over = s.over;
          v.graph = graph;
          return row.make(p, v);
        };
        r.io = [&p](const Part& part) { return own_rows(p, part); };
        return r;
      });
    }
    const auto prepare = [this, c, row, split, name, apis](const DeviceInfo& dev) {
      Problem& p = problem(c);
      std::unique_ptr<Runner> runner =
          split ? split_runner(apis, row.api, name.str(), p, *split) : row.make(p, row.variant);
      if (c.steps > 1) runner = std::make_unique<GroupedRunner>(std::move(runner), c.steps);
      const double bytes = counted_bytes(c.nx, c.ny) * c.steps;
      MeasuredRow measured(name);
      measured.runner(std::move(runner))
          .rate(RateUnit::GBps, bytes, dev.dram_peak_gbps)
          .per_item(double(c.nx) * double(c.ny) * c.steps, "ps_per_cell")
          .roofline(0, bytes)  // no flop counted: placed against the DRAM ceiling
          .clear_output([&p] { fill_parallel(p.out, NAN); })
          .validate([&p] { return validate(p); })
          .output_digest([&p] { return output_digest(own_rows(p, Part{})); })
          .counter("omega", p.flow.omega)
          .counter("courant", kCourant)
          .counter("steps_per_launch", c.steps)
          // One kernel a step on one device; the split rows' steps launch on
          // several devices and exchange halos: not counted, no launch-bound mark.
          .commands_per_launch(split ? 0 : c.steps);
      if (split) measured.counter("gpus", split->gpus).counter("halo_steps", split->halo_steps);
      return measured.prepared();
    };
    register_measured(name, apis, opts, prepare, /*startup=*/false);
  }

  // The index of `part` (a band of rows) among the row split's parts.
  static int part_index(const std::vector<RowRange>& bands, const Part& part) {
    for (std::size_t i = 0; i < bands.size(); ++i)
      if (bands[i].first == part.first && bands[i].count == part.count) return int(i);
    throw std::logic_error("advection: rows " + std::to_string(part.first) + " + " +
                           std::to_string(part.count) + " are not a part of the split");
  }

  // The runner of the rows over several GPUs: one MPI rank per part, or in
  // this process one thread per GPU of the API's split group.
  static std::unique_ptr<Runner> split_runner(const ApiSet& apis, const std::string& api,
                                              const std::string& name, Problem& p,
                                              const Split& split) {
    const std::string g = std::to_string(split.gpus);
    if (split.over == Transport::mpi && mpi_split_ranks() != split.gpus)
      throw Unavailable("the gpus:" + g + " rows run one MPI rank per GPU: mpirun -np " + g +
                        " gpucmp-bench --split-over mpi (this run has " +
                        std::to_string(mpi_split_ranks()) + " ranks)");
    SplitExecutor& executor = split_executor(apis, api);
    if (const int devices = apis.at(api)->split_group() ? apis.at(api)->split_group()->size() : 0;
        in_process(split.over) && devices < split.gpus)
      throw Unavailable("the gpus:" + g + " rows need " + g + " devices in " + api +
                        "'s split group (--" + (api == "cuda" ? "cuda" : "cl") +
                        "-split-devices); it has " + std::to_string(devices));
    std::vector<Part> parts;
    for (const RowRange& r : split_rows(p.ny, split.gpus))
      parts.push_back({SplitAxis::y, r.first, r.count});
    return executor.resident_runner(make_split_row(name), parts);
  }

  Problem& problem(const Config& c) {
    return problems_made_.get({c.nx, c.ny}, [c] { return make_problem(c.nx, c.ny); });
  }

  std::vector<std::pair<int, int>> grids_;  // empty, and no problems_: the preset's
  std::vector<int> problems_;               // judged problems, 1-based
  std::vector<int> gpus_ = {1};
  std::vector<int> halo_steps_ = {1};
  std::vector<Exchange> exchanges_ = {Exchange::sync, Exchange::overlap};
  std::vector<Transport> overs_;  // set at registration: given, or the run's default
  bool exchange_given_ = false, graph_given_ = false, over_given_ = false,
       halo_steps_given_ = false;
  bool graph_ = true;
  // Every grid of the standard preset (1.7 GB of host memory at its largest):
  // the suite interleaves advection's rows, and a grid of 2^27 cells takes
  // seconds to make.
  LastProblem<std::pair<int, int>, Problem> problems_made_{4};
};

}  // namespace

std::unique_ptr<Workload> make_workload() { return std::make_unique<Advection>(); }

}  // namespace gpucmp::advection
