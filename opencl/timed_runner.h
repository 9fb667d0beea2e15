// Batch timing for every OpenCL runner: profiling START of the first command
// of the batch to END of its last, plus host wall clock around the batch.
#pragma once
#include <vector>

#include "handles.h"
#include "runner.h"

namespace gpucmp::opencl {

class TimedRunner : public Runner {
 public:
  // What the device time spans:
  //   commands: START of the first recorded command .. END of the last (default)
  //   markers:  markers enqueued before and after the batch, for libraries that
  //             enqueue commands gpucmp cannot see (CLBlast's helper kernels)
  enum class Span { commands, markers };
  explicit TimedRunner(Span span = Span::commands) : span_(span) {}
  BatchTiming time_batch(int launches) final;
  void flush_l2(std::size_t bytes) final;

 protected:
  // Enqueues one launch; every command it enqueues passes record() as its event.
  virtual void enqueue() = 0;
  // The event slot of the next command in this batch.
  cl_event* record();

 private:
  Span span_;
  std::vector<Event> events_;
  Buffer scratch_;  // cold mode: written to evict the L2
  std::size_t scratch_bytes_ = 0;
  cl_uint flushes_ = 0;
};

// Device time from the START of `first` to the END of `last`, in seconds.
double profiled_seconds(cl_event first, cl_event last);

}  // namespace gpucmp::opencl
