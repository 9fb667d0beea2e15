// The measurement protocol shared by every workload and API: upload, first
// launch, validate, calibrate a batch, time batches with device timestamps,
// validate again, report counters. Written once, used by every runner.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <string>

#include "naming.h"
#include "runner.h"
#include "validation.h"

namespace gpucmp {

enum class RateUnit { GBps, GFLOPs };

struct Measurement {
  BenchName name;
  RateUnit unit = RateUnit::GFLOPs;
  double work_per_launch = 0;  // bytes (GBps) or flop (GFLOPs) one launch does
  double peak = 0;             // device peak in the same unit; 0: unknown
  double batch_target_ms = 20; // a timed sample lasts about this long
  // Optional: work items one launch processes (e.g. point x atom interactions);
  // reported as `time_per_item_counter` = picoseconds per item.
  double items_per_launch = 0;
  std::string time_per_item_counter;
  std::function<void()> clear_output;    // poisons the host output before each download
  std::function<Validation()> validate;  // checks the downloaded output
};

// Launches per timed sample so that one sample lasts about target_s
// (1 .. 1000).
int batch_size(double one_launch_s, double target_s);

void measure(benchmark::State& state, Runner& runner, const Measurement& m);

// Runs `body`, turning what it throws into a skipped or failed benchmark:
// Unavailable -> skipped (not a failure); UsageError -> exit code 2; anything
// else -> exit code 1. Each prints one line on stderr.
void run_guarded(benchmark::State& state, const BenchName& name,
                 const std::function<void()>& body);

// Marks the benchmark skipped with `why` (not a failure).
void skip(benchmark::State& state, const std::string& why);

}  // namespace gpucmp
