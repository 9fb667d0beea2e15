#include "workload.h"

#include <chrono>
#include <map>
#include <utility>

#include "errors.h"
#include "launch_floor.h"
#include "progress.h"

namespace gpucmp {

namespace {
std::vector<std::string>& names() {
  static std::vector<std::string> n;
  return n;
}
std::vector<MeasuredEntry>& measured() {
  static std::vector<MeasuredEntry> m;
  return m;
}
std::vector<std::function<void()>>& deferred() {
  static std::vector<std::function<void()>> d;
  return d;
}

// One NVML monitor per device (PCI bus id), shared by both APIs' rows.
const ClockMonitor* clock_monitor(const DeviceInfo& dev) {
  static std::map<std::string, std::unique_ptr<ClockMonitor>> monitors;
  if (dev.pci_bus_id.empty()) return nullptr;
  auto& m = monitors[dev.pci_bus_id];
  if (!m) m = std::make_unique<ClockMonitor>(dev.pci_bus_id);
  return m.get();
}

// The last measured row's runner, kept while Google Benchmark runs that row's
// repetitions back to back: they skip making the inputs, the upload and the
// validation before timing (RowSetup). Freed as soon as any other benchmark
// starts (before it allocates anything) and at the end of the run.
struct KeptRow {
  std::string id;  // the timed name; empty: nothing kept
  std::unique_ptr<Prepared> prepared;
  RowSetup setup;
  std::string label;
};
KeptRow& kept_row() {
  static KeptRow k;
  return k;
}

// Registers `name` as a manual-time benchmark whose body runs on its API:
// skipped when the API has no device, errors handled by run_guarded.
void register_benchmark(const BenchName& name, const ApiSet& apis,
                        std::function<void(benchmark::State&, Api&, const DeviceInfo&)> body) {
  const auto it = apis.find(name.api);
  if (it == apis.end()) return;  // this build has no such API
  Api* api = it->second;
  // As Google Benchmark names it (and filters it) after UseManualTime()->Iterations(1).
  names().push_back(name.str() + "/iterations:1/manual_time");
  // One Google Benchmark iteration per run: the samples are taken inside it
  // (sampling.h), so that their number can follow the noise target.
  benchmark::RegisterBenchmark(name.str().c_str(),
                               [name, api, body](benchmark::State& state) {
                                 if (kept_row().id != name.str()) release_kept_row();
                                 progress_step(name);
                                 run_guarded(state, name, [&] {
                                   const std::string why = api->unavailable();
                                   if (!why.empty()) throw Unavailable(why);
                                   body(state, *api, api->info());
                                 });
                               })
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMicrosecond);
}
}  // namespace

const std::vector<std::string>& registered_names() { return names(); }
const std::vector<MeasuredEntry>& measured_rows() { return measured(); }

void release_kept_row() {
  KeptRow& k = kept_row();
  k.prepared.reset();
  k = KeptRow{};
}

BenchName timed_name(const BenchName& name, const Options& opts) {
  BenchName n = name;
  if (opts.cache == CacheMode::cold) n.params.push_back({"cache", "cold"});
  // --launch-gaps adds commands between CUDA's launches: not the same timing.
  if (opts.launch_gaps) n.params.push_back({"gaps", "timed"});
  return n;
}

void register_measured(const BenchName& name, const ApiSet& apis, const Options& opts,
                       Prepare prepare, bool startup) {
  register_benchmark(
      timed_name(name, opts), apis,
      [name, prepare, opts](benchmark::State& state, Api& api, const DeviceInfo& dev) {
        KeptRow& k = kept_row();
        const std::string id = timed_name(name, opts).str();
        double prepare_s = 0;
        if (k.id != id || !k.prepared) {
          release_kept_row();  // its device memory goes before this row's is made
          const auto t_prepare = std::chrono::steady_clock::now();
          auto p = std::make_unique<Prepared>(prepare(dev));
          prepare_s =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t_prepare).count();
          k.label = p->label.empty() ? p->runner->label() : p->label;
          if (k.label.empty()) k.label = api.variant_label(name.workload, name.variant);
          p->m.name = timed_name(p->m.name, opts);
          k.prepared = std::move(p);
          k.id = id;
        }
        if (!k.label.empty()) state.SetLabel(k.label);
        Protocol protocol;
        protocol.sampling = opts.sampling;
        protocol.cache = opts.cache;
        protocol.batch_target_ms = opts.batch_target_ms;
        protocol.flush_bytes = flush_bytes_for(dev.l2_bytes);
        protocol.clocks = clock_monitor(dev);
        protocol.prepare_s = prepare_s;
        // Back to back (not interleaved), the row's next repetition takes this
        // runner as it is: the last one validates after its samples.
        static std::map<std::string, int> repetitions_run;  // per row, whatever its runner
        const int run = ++repetitions_run[id];
        protocol.check_after =
            opts.interleaved || opts.repetitions <= 1 || run % opts.repetitions == 0;
        // Probed now, in the state the row's samples will find (launch_floor.h).
        if (opts.launch_floor && opts.cache == CacheMode::hot &&
            k.prepared->m.commands_per_launch > 0)
          protocol.launch_floor_s = launch_floor_s(name.api);
        try {
          measure(state, *k.prepared->runner, k.prepared->m, protocol, &k.setup);
        } catch (...) {
          release_kept_row();  // a failed row is made afresh, never reused
          throw;
        }
      });
  const auto it = apis.find(name.api);
  if (it != apis.end()) measured().push_back({name, prepare});
  if (!startup || !opts.startup || it == apis.end() ||
      !it->second->has_startup(name.workload, name.variant))
    return;
  deferred().emplace_back([name, apis, opts, prepare = std::move(prepare)] {
    register_benchmark(
        startup_name(name), apis,
        [name, prepare, opts](benchmark::State& state, Api& api, const DeviceInfo& dev) {
          measure_startup(state, api, dev, name, prepare, opts.startup_samples);
        });
  });
}

void register_deferred_benchmarks() {
  for (auto& r : deferred()) r();
  deferred().clear();
}

}  // namespace gpucmp
