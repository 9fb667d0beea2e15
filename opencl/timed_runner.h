// Batch timing for every OpenCL runner, the same yardstick as CUDA's
// (cuda/timed_runner.h): a marker before the first command of the batch and
// one after the last, their profiling timestamps the device time, plus host
// wall clock around the batch. No command inside the batch asks for an event:
// on NVIDIA's driver an event per command costs about 8 us a launch
// (docs/DESIGN.md, "Fairness rules"). Per-command events only with
// --launch-gaps (rows gaps:timed), to time each launch apart.
#pragma once
#include <vector>

#include "handles.h"
#include "runner.h"

namespace gpucmp::opencl {

class TimedRunner : public Runner {
 public:
  BatchTiming time_batch(int launches) final;
  void flush_l2(std::size_t bytes) final;

 protected:
  // Enqueues one launch; every command it enqueues passes record() as its
  // event argument.
  virtual void enqueue() = 0;
  // The event argument of the next command of this batch: null (no event)
  // unless launch spans are on. Counts the batch's commands either way.
  cl_event* record();

 private:
  std::vector<Event> events_;  // launch spans only: one per command
  int commands_ = 0;           // record() calls in this batch
  Buffer scratch_;             // cold mode: written to evict the L2
  std::size_t scratch_bytes_ = 0;
  cl_uint flushes_ = 0;
};

// Device time from the START of `first` to the END of `last`, in seconds.
double profiled_seconds(cl_event first, cl_event last);

}  // namespace gpucmp::opencl
