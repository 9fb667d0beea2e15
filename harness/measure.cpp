#include "measure.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "errors.h"
#include "outcome.h"
#include "stats.h"

namespace gpucmp {

int batch_size(double one_launch_s, double target_s) {
  if (!(one_launch_s > 0)) return 1;
  const double n = std::floor(target_s / one_launch_s);
  return int(std::clamp(n, 1.0, 1000.0));
}

namespace {
constexpr double kHostDeviceTolerance = 0.02;

Validation require_valid(const Measurement& m, const char* when) {
  Validation v = m.validate();
  if (!v.ok) throw ApiError(std::string("validation failed ") + when + ": " + v.describe());
  return v;
}
}  // namespace

void measure(benchmark::State& state, Runner& runner, const Measurement& m) {
  runner.upload();
  const BatchTiming first = runner.time_batch(1);  // cold: lazy loading, first-touch
  m.clear_output();
  runner.download();
  require_valid(m, "before timing");

  const BatchTiming probe = runner.time_batch(1);  // warm-up, and the batch size
  // Size batches by the slower of device and host time per launch, so that
  // launches whose host overhead dwarfs their device time still end in time.
  const int batch = batch_size(std::max(probe.device_s, probe.host_s), m.batch_target_ms * 1e-3);

  std::vector<double> per_launch;
  double device_total = 0, host_total = 0;
  for (auto _ : state) {
    const BatchTiming t = runner.time_batch(batch);
    state.SetIterationTime(t.device_s / batch);
    per_launch.push_back(t.device_s / batch);
    device_total += t.device_s;
    host_total += t.host_s;
  }
  m.clear_output();
  runner.download();
  const Validation v = require_valid(m, "after timing");

  const Summary s = summarize(per_launch);
  const double scale = 1e-9;  // GB/s = 1e9 B/s, GFLOP/s = 1e9 flop/s
  const char* rate_name = m.unit == RateUnit::GBps ? "GB/s" : "GFLOP/s";
  state.counters[rate_name] = benchmark::Counter(m.work_per_launch * scale,
                                                 benchmark::Counter::kIsIterationInvariantRate);
  const double rate = s.mean > 0 ? m.work_per_launch * scale / s.mean : 0;
  const double pct_peak = m.peak > 0 ? 100.0 * rate / m.peak : 0;
  if (m.peak > 0) state.counters["pct_peak"] = pct_peak;
  state.counters["max_rel_err"] = v.max_rel_err;
  state.counters["first_launch_ms"] = first.host_s * 1e3;
  state.counters["batch"] = batch;
  state.counters["cv"] = s.cv;
  state.counters["min_us"] = s.min * 1e6;
  state.counters["max_us"] = s.max * 1e6;
  if (device_total > 0) {
    // Device timestamps cross-checked against the host clock over the same
    // batches: beyond 2% the device time misses something (launch gaps,
    // a timer bug), or the launch overhead is not hidden by the batch.
    const double ratio = host_total / device_total;
    const bool disagree = std::abs(ratio - 1.0) > kHostDeviceTolerance;
    state.counters["host/device"] = ratio;
    state.counters["host_device_flag"] = disagree ? 1 : 0;
    if (disagree && batch > 1)
      std::cerr << "gpucmp-bench: warning: " << m.name.str() << ": host wall clock is "
                << ratio << "x the device time over batches of " << batch << "\n";
  }
  if (m.items_per_launch > 0 && !m.time_per_item_counter.empty())
    state.counters[m.time_per_item_counter] = s.mean / m.items_per_launch * 1e12;
  if (runner.build_ms() >= 0) state.counters["build_ms"] = runner.build_ms();
  outcome().record({m.name, s.mean, pct_peak});
}

void skip(benchmark::State& state, const std::string& why) {
#ifdef GPUCMP_HAVE_SKIP_MESSAGE
  state.SkipWithMessage(("skipped: " + why).c_str());
#else
  state.SkipWithError(("skipped: " + why).c_str());
#endif
}

void run_guarded(benchmark::State& state, const BenchName& name,
                 const std::function<void()>& body) {
  const std::string id = name.str();
  try {
    body();
  } catch (const Unavailable& e) {
    skip(state, e.what());
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
