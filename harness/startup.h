// Startup benchmarks: what a kernel costs before its first result, measured
// apart from kernel time (docs/DESIGN.md "Fairness rules"). Each sample starts
// fresh (Api::start_fresh: OpenCL programs forgotten; CUDA context re-created, so
// that its module is loaded again), builds the runner (the OpenCL program
// build happens here), uploads (not counted), then times the first launch and
// a second one. Named startup/<api>/<workload>-<variant>/<params>.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>

#include "api.h"
#include "measure.h"

namespace gpucmp {

struct Prepared {
  Measurement m;  // declared first: its closures may own the problem the runner uses
  std::unique_ptr<Runner> runner;
  // The row's label where it is not its runner's (Runner::label): --tune's
  // best rows say what they chose (harness/tune.h).
  std::string label;
};
// Makes a fresh runner and what to measure of it, for a device.
using Prepare = std::function<Prepared(const DeviceInfo&)>;

// The startup benchmark's name for a timed benchmark's name.
BenchName startup_name(const BenchName& timed);

// Takes `samples` fresh starts. Iteration time: median of build + first
// launch. Counters: build_ms (OpenCL), first_launch_ms, second_launch_ms,
// context_ms (CUDA: re-creating the context, not counted), each the median.
// Also, where the API has one (Api::ptx_load_ms), ptx_load_ms: loading the
// variant's kernels from PTX in the fresh context (not part of the time).
void measure_startup(benchmark::State& state, Api& api, const DeviceInfo& dev,
                     const BenchName& timed, const Prepare& prepare, int samples);

}  // namespace gpucmp
