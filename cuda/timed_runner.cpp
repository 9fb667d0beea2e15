#include "timed_runner.h"

#include <chrono>

namespace gpucmp::cuda {

TimedRunner::TimedRunner() : stream_(make_stream()), start_(make_event()), stop_(make_event()) {}

void TimedRunner::flush_l2(std::size_t bytes) {
  if (scratch_bytes_ != bytes) {
    scratch_ = device_alloc(bytes, "L2 flush scratch");
    scratch_bytes_ = bytes;
  }
  // New data each time, so that nothing is elided (as nvbench's l2flush).
  check(cudaMemsetAsync(scratch_.get(), ++flushes_, bytes, stream()), "cudaMemsetAsync",
        "L2 flush, " + std::to_string(bytes) + " bytes");
  check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize", "L2 flush");
}

BatchTiming TimedRunner::time_batch(int launches) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool spans = launch_spans();
  const auto n = std::size_t(launches);
  while (spans && spans_.size() < 2 * n) spans_.push_back(make_event());
  check(cudaEventRecord(start_.get(), stream()), "cudaEventRecord", "batch start");
  for (std::size_t i = 0; i < n; ++i) {
    if (spans) check(cudaEventRecord(spans_[2 * i].get(), stream()), "cudaEventRecord", "launch");
    enqueue();
    if (spans)
      check(cudaEventRecord(spans_[2 * i + 1].get(), stream()), "cudaEventRecord", "launch");
  }
  check(cudaGetLastError(), "kernel launch", "timed batch");
  check(cudaEventRecord(stop_.get(), stream()), "cudaEventRecord", "batch stop");
  check(cudaEventSynchronize(stop_.get()), "cudaEventSynchronize", "batch stop");
  const auto t1 = std::chrono::steady_clock::now();
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start_.get(), stop_.get()), "cudaEventElapsedTime", "batch");
  BatchTiming t;
  t.launches = launches;
  t.device_s = double(ms) * 1e-3;
  t.host_s = std::chrono::duration<double>(t1 - t0).count();
  t.timing_events = 2 + (spans ? int(2 * n) : 0);
  if (spans) {
    t.launches_s = 0;
    for (std::size_t i = 0; i < n; ++i) {
      check(cudaEventElapsedTime(&ms, spans_[2 * i].get(), spans_[2 * i + 1].get()),
            "cudaEventElapsedTime", "launch");
      t.launches_s += double(ms) * 1e-3;
    }
  }
  return t;
}

}  // namespace gpucmp::cuda
