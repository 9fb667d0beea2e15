#include "measure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

#include "errors.h"
#include "interrupt.h"
#include "launch_floor.h"
#include "outcome.h"
#include "sampling.h"
#include "skip_log.h"
#include "stats.h"

namespace gpucmp {

namespace {
bool g_launch_spans = false;
}  // namespace

void set_launch_spans(bool on) { g_launch_spans = on; }
bool launch_spans() { return g_launch_spans; }

int batch_size(double one_launch_s, double target_s) {
  if (!(one_launch_s > 0)) return 1;
  const double n = std::floor(target_s / one_launch_s);
  return int(std::clamp(n, 1.0, 1000.0));
}

std::size_t flush_bytes_for(long long l2_bytes) {
  const std::size_t page = 4096;  // whole pages: fill patterns and memsets divide it
  const std::size_t bytes = l2_bytes > 0 ? std::size_t(l2_bytes) * 2 : std::size_t(64) << 20;
  return (bytes + page - 1) / page * page;
}

namespace {
constexpr double kHostDeviceTolerance = 0.02;

Validation require_valid(const Measurement& m, const char* when) {
  Validation v = m.validate();
  if (!v.ok) throw ApiError(std::string("validation failed ") + when + ": " + v.describe());
  return v;
}

void warn(const Measurement& m, const std::string& what) {
  std::cerr << "gpucmp-bench: warning: " << m.name.str() << ": " << what << "\n";
}

// Clocks, temperature and power before and after the samples, and the lowest
// SM clock seen between samples; flags a clock below kThrottleFraction of max.
class ClockLog {
 public:
  explicit ClockLog(const ClockMonitor* c) : c_(c && c->available() ? c : nullptr) {
    if (c_) before_ = c_->read();
  }
  void between_samples() {
    if (!c_) return;
    const double mhz = c_->sm_mhz();
    if (mhz > 0 && (min_sm_ < 0 || mhz < min_sm_)) min_sm_ = mhz;
  }
  void report(benchmark::State& state, const Measurement& m) {
    if (!c_) return;
    const ClockReading after = c_->read();
    // The reading before may show an idle clock; only those taken right after
    // samples count for the throttle test.
    if (after.sm_mhz > 0 && (min_sm_ < 0 || after.sm_mhz < min_sm_)) min_sm_ = after.sm_mhz;
    const auto put = [&](const char* key, double v) {
      if (v >= 0) state.counters[key] = v;
    };
    put("sm_mhz_before", before_.sm_mhz);
    put("sm_mhz_after", after.sm_mhz);
    put("sm_mhz_min", min_sm_);
    put("mem_mhz", after.mem_mhz);
    put("temp_c_before", before_.temp_c);
    put("temp_c_after", after.temp_c);
    put("power_w_before", before_.power_w);
    put("power_w_after", after.power_w);
    const double max = after.sm_max_mhz;
    const bool low = max > 0 && min_sm_ > 0 && min_sm_ < kThrottleFraction * max;
    if (max > 0) state.counters["clock_flag"] = low ? 1 : 0;
    if (low)
      warn(m, "SM clock fell to " + std::to_string(int(min_sm_)) + " MHz, below " +
                  std::to_string(int(kThrottleFraction * 100)) + "% of its maximum " +
                  std::to_string(int(max)) + " MHz (throttle reasons 0x" +
                  hex(after.throttle_reasons) + ")");
  }

 private:
  static std::string hex(unsigned long long v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", v);
    return buf;
  }
  const ClockMonitor* c_;
  ClockReading before_;
  double min_sm_ = -1;
};
}  // namespace

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

void measure(benchmark::State& state, Runner& runner, const Measurement& m, const Protocol& p,
             RowSetup* setup) {
  // Where a row's host time goes (row_*_ms counters): what the samples do not
  // account for is the cost of a row beyond its timing.
  const auto t_start = std::chrono::steady_clock::now();
  // A signal abandons the benchmark at the next of these checks (interrupt.h):
  // before the first launch (which may build), before the warm-up, and
  // before every sample.
  const bool reused = setup && setup->done;
  BatchTiming first;
  Validation before;
  if (reused) {
    first = setup->first;
    before = setup->before;
  } else {
    interrupt::check();
    runner.upload();
    first = runner.time_batch(1);  // lazy loading, first touch
    m.clear_output();
    runner.download();
    before = require_valid(m, "before timing");
    if (setup) *setup = RowSetup{true, first, before};
  }
  const double setup_s = seconds_since(t_start);

  interrupt::check();
  const BatchTiming probe = runner.time_batch(1);  // warm-up, and the batch size
  // Hot: size batches by the slower of device and host time per launch, so
  // that launches whose host overhead dwarfs their device time still end in
  // time. Cold: one launch per sample, the L2 flushed before it.
  const bool cold = p.cache == CacheMode::cold;
  const int batch =
      cold ? 1 : batch_size(std::max(probe.device_s, probe.host_s), p.batch_target_ms * 1e-3);

  ClockLog clocks(p.clocks);
  double device_total = 0, host_total = 0, launches_total = 0;
  long long launched = 0, commands = 0;
  int timing_events = 0;  // the most timestamps one batch asked for
  bool spans = true;      // every batch measured its launches' own spans
  Samples samples;
  const auto t_samples = std::chrono::steady_clock::now();
  for (auto _ : state) {
    samples = take_samples(p.sampling, [&] {
      interrupt::check();
      if (cold) runner.flush_l2(p.flush_bytes);
      const BatchTiming t = runner.time_batch(batch);
      device_total += t.device_s;
      host_total += t.host_s;
      launches_total += t.launches_s;
      launched += batch;
      commands += t.commands;
      timing_events = std::max(timing_events, t.timing_events);
      spans = spans && t.launches_s >= 0;
      clocks.between_samples();
      return t.device_s / batch;
    });
    // One Google Benchmark iteration holds all samples: its time is their mean.
    state.SetIterationTime(summarize(samples.values).mean);
  }
  const double samples_s = seconds_since(t_samples);
  const auto t_check = std::chrono::steady_clock::now();
  Validation v = before;
  if (p.check_after) {
    m.clear_output();
    runner.download();
    v = require_valid(m, "after timing");
    if (m.after_timing) m.after_timing();
    if (m.output_digest) state.counters["output_digest"] = m.output_digest();
  }
  state.counters["checked_after"] = p.check_after ? 1 : 0;
  const double check_s = seconds_since(t_check);

  const Summary s = summarize(samples.values);
  const double scale = 1e-9;  // GB/s = 1e9 B/s, GFLOP/s = 1e9 flop/s
  const char* rate_name = m.unit == RateUnit::GBps ? "GB/s" : "GFLOP/s";
  state.counters[rate_name] =
      benchmark::Counter(m.work_per_launch * scale, benchmark::Counter::kIsIterationInvariantRate);
  const double rate = s.mean > 0 ? m.work_per_launch * scale / s.mean : 0;
  const double pct_peak = m.peak > 0 ? 100.0 * rate / m.peak : 0;
  if (m.peak > 0) state.counters["pct_peak"] = pct_peak;
  state.counters["max_rel_err"] = v.max_rel_err;
  state.counters["first_launch_ms"] = first.host_s * 1e3;
  state.counters["batch"] = batch;
  state.counters["cold"] = cold ? 1 : 0;
  state.counters["samples"] = double(s.count);
  state.counters["cv"] = s.cv;
  state.counters["min_us"] = s.min * 1e6;
  state.counters["median_us"] = s.median * 1e6;
  state.counters["max_us"] = s.max * 1e6;
  if (p.sampling.fixed == 0) {
    state.counters["noise_met"] = samples.noise_met ? 1 : 0;
    if (!samples.noise_met)
      warn(m, "relative stddev " + std::to_string(s.cv * 100) + "% after " +
                  std::to_string(s.count) + " samples (" + std::to_string(samples.elapsed_s) +
                  " s) is above the --max-noise target " +
                  std::to_string(p.sampling.max_noise * 100) + "%");
  }
  if (device_total > 0 && !cold) {
    // Device timestamps cross-checked against the host clock over the same
    // batches: beyond 2% the device time misses something (launch gaps,
    // a timer bug), or the launch overhead is not hidden by the batch.
    const double ratio = host_total / device_total;
    const bool disagree = std::abs(ratio - 1.0) > kHostDeviceTolerance;
    state.counters["host/device"] = ratio;
    state.counters["host_device_flag"] = disagree ? 1 : 0;
    if (disagree && batch > 1)
      warn(m, "host wall clock is " + std::to_string(ratio) + "x the device time over batches of " +
                  std::to_string(batch));
  }
  if (spans && launched > 0 && launch_spans()) {
    // The device time between launches (launch overhead the batch did not
    // hide), and a launch's own time, per launch.
    state.counters["launch_us"] = launches_total / double(launched) * 1e6;
    state.counters["launch_gap_us"] = (device_total - launches_total) / double(launched) * 1e6;
  }
  state.counters["timing_events"] = timing_events;
  if (m.commands_per_launch > 0) state.counters["commands_per_launch"] = m.commands_per_launch;
  if (commands > 0 && launched > 0)
    state.counters["commands_counted"] = double(commands) / double(launched);
  bool bound = false;
  if (p.launch_floor_s > 0 && !cold && m.commands_per_launch > 0) {
    const LaunchBound b = launch_bound(s.mean, m.commands_per_launch, p.launch_floor_s);
    bound = b.bound;
    state.counters["launch_floor_us"] = p.launch_floor_s * 1e6;
    state.counters["launch_floor_ratio"] = b.ratio;
    state.counters["launch_bound"] = b.bound ? 1 : 0;
  }
  clocks.report(state, m);
  if (m.items_per_launch > 0 && !m.time_per_item_counter.empty())
    state.counters[m.time_per_item_counter] = s.mean / m.items_per_launch * 1e12;
  if (runner.build_ms() >= 0) state.counters["build_ms"] = runner.build_ms();
  if (m.roofline_bytes > 0) {
    state.counters["roofline_flop"] = m.roofline_flop;
    state.counters["roofline_bytes"] = m.roofline_bytes;
  }
  for (const auto& [key, value] : m.counters) state.counters[key] = value;
  if (p.prepare_s >= 0) state.counters["row_prepare_ms"] = p.prepare_s * 1e3;
  state.counters["row_setup_ms"] = setup_s * 1e3;  // upload, first launch, validation
  state.counters["row_setup_reused"] = reused ? 1 : 0;
  state.counters["row_samples_ms"] = samples_s * 1e3;
  state.counters["row_check_ms"] = check_s * 1e3;  // download and validation after timing
  state.counters["row_total_ms"] = seconds_since(t_start) * 1e3 + std::max(p.prepare_s, 0.0) * 1e3;
  outcome().record({m.name, s.mean, pct_peak, bound});
}

namespace {
std::string skip_message(const std::string& why) { return "skipped: " + why; }

// Not a result: a report shows no row for it (skip_log.h).
void abandon(benchmark::State& state, const BenchName& name) {
  const std::string message = interrupt::Interrupted().what();
  // A repetition abandoned before its one iteration started would report 0
  // iterations beside its finished siblings' 1, and Google Benchmark's
  // ComputeStats aborts on that (BM_CHECK: no report at all). Start it first.
  if (state.iterations() == 0) (void)state.KeepRunning();
#ifdef GPUCMP_HAVE_SKIP_MESSAGE
  state.SkipWithMessage(message);
#else
  state.SkipWithError(message.c_str());
#endif
  skip_log().abandoned(name, message);
}
}  // namespace

void skip(benchmark::State& state, const std::string& why) {
#ifdef GPUCMP_HAVE_SKIP_MESSAGE
  state.SkipWithMessage(skip_message(why));
#else
  // 1.7 has no skip without error: the reporters leave these runs out (skip_log.h).
  state.SkipWithError(skip_message(why).c_str());
#endif
}

void run_guarded(benchmark::State& state, const BenchName& name,
                 const std::function<void()>& body) {
  const std::string id = name.str();
  if (interrupt::requested()) {  // the run is stopping: nothing more starts
    abandon(state, name);
    return;
  }
  try {
    body();
  } catch (const interrupt::Interrupted&) {
    abandon(state, name);
  } catch (const Unavailable& e) {
    skip(state, e.what());
    skip_log().skipped(name, e.what(), skip_message(e.what()));
  } catch (const BuildError& e) {
    std::cerr << "gpucmp-bench: error: " << id << ": " << e.what() << "\n--- build log ---\n"
              << e.log << "\n--- end of build log ---\n";
    state.SkipWithError(e.what());
    outcome().fail(kExitUsage, id + ": " + e.what());
  } catch (const UsageError& e) {
    std::cerr << "gpucmp-bench: error: " << id << ": " << e.what() << "\n";
    state.SkipWithError(e.what());
    outcome().fail(kExitUsage, id + ": " + e.what());
  } catch (const std::exception& e) {
    std::cerr << "gpucmp-bench: error: " << id << ": " << e.what() << "\n";
    state.SkipWithError(e.what());
    outcome().fail(kExitFailed, id + ": " + e.what());
  }
}

}  // namespace gpucmp
