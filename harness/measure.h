// The measurement protocol shared by every workload and API: upload, first
// launch, validate, calibrate a batch, take samples (hot: batches of launches;
// cold: one launch after an L2 flush) with device timestamps until the sampling
// rule stops, validate again, report counters and clocks. Written once, used
// by every runner.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "naming.h"
#include "nvml.h"
#include "options.h"
#include "runner.h"
#include "validation.h"

namespace gpucmp {

enum class RateUnit { GBps, GFLOPs };

struct Measurement {
  BenchName name;
  RateUnit unit = RateUnit::GFLOPs;
  double work_per_launch = 0;  // bytes (GBps) or flop (GFLOPs) one launch does
  double peak = 0;             // device peak in the same unit; 0: unknown
  // Optional: work items one launch processes (e.g. point x atom interactions);
  // reported as `time_per_item_counter` = picoseconds per item.
  double items_per_launch = 0;
  std::string time_per_item_counter;
  // Optional: the row's place on the roofline (scripts/roofline.py), counted
  // from the workload's sizes: FP32 flop per launch (0: none) and the least
  // DRAM traffic per launch in bytes; reported as roofline_flop and
  // roofline_bytes when roofline_bytes > 0.
  double roofline_flop = 0;
  double roofline_bytes = 0;
  std::function<void()> clear_output;    // poisons the host output before each download
  std::function<Validation()> validate;  // checks the downloaded output
  std::function<void()> after_timing;    // optional: runs on the output validated after timing
  // Optional: a digest of the output validated after timing, reported as
  // output_digest (split rows, harness/split_io.h: runs compared bit for bit).
  std::function<double()> output_digest;
  // Commands (kernels, copies, fills) one launch enqueues, the same on both
  // APIs by the pairing rule: a launch-bound row is one whose time per launch
  // is within kLaunchBoundMargin of this many launches at the API's floor
  // (launch_floor.h). OpenCL counts what its runners enqueue (counter
  // commands_counted) and the tests hold the two equal. 0: not known (a vendor
  // library's dispatch), no launch-bound mark.
  int commands_per_launch = 1;
  // Optional counters reported as given (e.g. local_x, local_y of a row whose
  // launch geometry is a parameter, harness/local_rows.h).
  std::vector<std::pair<std::string, double>> counters;
};

// Launches per timed sample so that one sample lasts about target_s
// (1 .. 1000).
int batch_size(double one_launch_s, double target_s);

// How to measure, from the options and the device (the same for every workload).
struct Protocol {
  SamplingRule sampling;
  CacheMode cache = CacheMode::hot;
  double batch_target_ms = 20;           // hot: a timed sample lasts about this long
  std::size_t flush_bytes = 0;           // cold: bytes written to evict the L2
  const ClockMonitor* clocks = nullptr;  // NVML readings; null or unavailable: none
  double launch_floor_s = -1;            // the API's launch floor (launch_floor.h); <= 0: unknown
  double prepare_s = -1;                 // host time the row's prepare took (inputs, runner)
  // Validate after the samples; off on a repetition that the same row's next
  // repetition follows with this runner (RowSetup): that one validates.
  bool check_after = true;
};

// Bytes the cold mode writes to evict an L2 of `l2_bytes` (twice its size;
// 64 MiB when the size is unknown).
std::size_t flush_bytes_for(long long l2_bytes);

// The SM clock fell below this fraction of its maximum: the sample is suspect.
constexpr double kThrottleFraction = 0.90;

// What a row's first repetition established and its next repetitions (run
// back to back by Google Benchmark) reuse with the same runner: the inputs
// uploaded, the first launch timed and its output validated against the CPU
// reference. The last of them validates after its samples (Protocol::check_after).
struct RowSetup {
  bool done = false;
  BatchTiming first;  // the row's first launch
  Validation before;  // its validation
};

// Uploads, launches once, validates, then samples and validates again (the
// first three skipped where `setup` says they are done; it is filled in
// otherwise).
void measure(benchmark::State& state, Runner& runner, const Measurement& m, const Protocol& p,
             RowSetup* setup = nullptr);

// Runs `body`, turning what it throws into a skipped or failed benchmark:
// Unavailable -> skipped (not a failure; recorded in skip_log(), so that no
// report shows a row for it); interrupt::Interrupted, or a signal before the
// body starts -> abandoned (recorded the same way); UsageError -> exit code 2;
// anything else -> exit code 1. Each failure prints one line on stderr.
void run_guarded(benchmark::State& state, const BenchName& name, const std::function<void()>& body);

// Marks the benchmark skipped with "skipped: <why>" (SkipWithMessage; with
// Google Benchmark 1.7, which has none, SkipWithError).
void skip(benchmark::State& state, const std::string& why);

}  // namespace gpucmp
