#include "startup.h"

#include <algorithm>
#include <vector>

#include "errors.h"
#include "stats.h"

namespace gpucmp {

BenchName startup_name(const BenchName& timed) {
  return BenchName{"startup", timed.api, timed.workload + "-" + timed.variant, timed.params};
}

void measure_startup(benchmark::State& state, Api& api, const DeviceInfo& dev,
                     const BenchName& timed, const Prepare& prepare, int samples) {
  std::vector<double> build_ms, first_ms, second_ms, context_ms, ptx_ms, total_s;
  for (auto _ : state) {
    for (int i = 0; i < samples; ++i) {
      context_ms.push_back(api.start_fresh());
      Prepared p = prepare(dev);  // the OpenCL program is built here
      p.runner->upload();
      const BatchTiming first = p.runner->time_batch(1);
      const BatchTiming second = p.runner->time_batch(1);
      p.m.clear_output();
      p.runner->download();
      const Validation v = p.m.validate();
      if (!v.ok) throw ApiError("validation failed after a fresh start: " + v.describe());
      const double build = std::max(p.runner->build_ms(), 0.0);
      if (p.runner->build_ms() >= 0) build_ms.push_back(build);
      first_ms.push_back(first.host_s * 1e3);
      second_ms.push_back(second.host_s * 1e3);
      total_s.push_back(build * 1e-3 + first.host_s);
      if (const double ms = api.ptx_load_ms(timed.workload, timed.variant); ms >= 0)
        ptx_ms.push_back(ms);
    }
    state.SetIterationTime(summarize(total_s).median);
  }
  if (!build_ms.empty()) state.counters["build_ms"] = summarize(build_ms).median;
  state.counters["first_launch_ms"] = summarize(first_ms).median;
  state.counters["second_launch_ms"] = summarize(second_ms).median;
  if (!ptx_ms.empty()) state.counters["ptx_load_ms"] = summarize(ptx_ms).median;
  const Summary ctx = summarize(context_ms);
  if (ctx.max > 0) state.counters["context_ms"] = ctx.median;
  const Summary total = summarize(total_s);
  state.counters["samples"] = double(total.count);
  state.counters["min_us"] = total.min * 1e6;
  state.counters["max_us"] = total.max * 1e6;
  state.counters["cv"] = total.cv;
}

}  // namespace gpucmp
