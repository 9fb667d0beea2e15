// Batch timing for every OpenCL runner: profiling START of the first command
// of the batch to END of its last, plus host wall clock around the batch.
#pragma once
#include <vector>

#include "handles.h"
#include "runner.h"

namespace gpucmp::opencl {

class TimedRunner : public Runner {
 public:
  BatchTiming time_batch(int launches) final;

 protected:
  // Enqueues one launch; every command it enqueues passes record() as its event.
  virtual void enqueue() = 0;
  // The event slot of the next command in this batch.
  cl_event* record();

 private:
  std::vector<Event> events_;
};

// Device time from the START of `first` to the END of `last`, in seconds.
double profiled_seconds(cl_event first, cl_event last);

}  // namespace gpucmp::opencl
