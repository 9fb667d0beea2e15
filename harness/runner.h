// The thin per-API runner of one workload configuration: allocate + upload,
// enqueue the kernel(s), download. Timing of a batch is written once per API
// (cuda/timed_runner.h, opencl/timed_runner.h), everything else in harness/.
#pragma once
#include <cstddef>
#include <string>

#include "kernel_resources.h"

namespace gpucmp {

struct BatchTiming {
  double device_s = 0;  // device timestamps: first launch start .. last launch end
  double host_s = 0;    // host wall clock around the same batch, incl. synchronisation
  int launches = 0;
  // With launch spans on (set_launch_spans): the sum over the batch's
  // launches of each one's own device time, its first command's start to
  // its last's end, so that device_s - launches_s is the time between
  // launches; negative when not measured.
  double launches_s = -1;
  // Commands the runner enqueued in the batch, where the API counts them
  // (OpenCL: record() calls); 0 when not counted.
  int commands = 0;
  // Timestamps the batch asked of the API (events, markers): 2, the batch's
  // two ends, unless launch spans are on (docs/DESIGN.md, "Fairness rules").
  int timing_events = 0;
};

// --launch-gaps: the runners also time each launch of a batch (CUDA: an event
// before and after it; OpenCL: an event on each of its commands). Off by
// default: CUDA's extra events are commands of the stream, and on NVIDIA's
// OpenCL an event per command costs about 8 us a launch.
void set_launch_spans(bool on);
bool launch_spans();

class Runner {
 public:
  virtual ~Runner() = default;
  // Allocate device memory and upload the inputs (not timed).
  virtual void upload() = 0;
  // Enqueue `launches` back-to-back launches and wait for them.
  virtual BatchTiming time_batch(int launches) = 0;
  // Copy the outputs back to the workload's host buffers (not timed).
  virtual void download() = 0;
  // Evict the device's caches before a cold sample: write `bytes` through a
  // scratch buffer on the runner's stream/queue and wait (not timed).
  virtual void flush_l2(std::size_t bytes) = 0;
  // Waits, ignoring errors, for everything the runner enqueued on any stream
  // or queue: a resident split settles every part before it destroys any,
  // since a part may still be writing into another's buffers (CUDA peer
  // copies). Nothing to wait for by default.
  virtual void settle() noexcept {}
  // Milliseconds the API spent building this runner's program (OpenCL JIT),
  // negative when the API builds nothing at run time.
  virtual double build_ms() const { return -1; }
  // How this runner's program was built ("key=value; ..." as
  // Api::variant_label), where it differs by more than the variant (e.g. a
  // program per word type); empty: the API's variant_label stands.
  virtual std::string label() const { return ""; }
  // The work-group size the API suggests for this runner's kernel, for rows
  // whose launch geometry is a parameter (local_rows.h): CUDA's
  // cudaOccupancyMaxPotentialBlockSize, OpenCL's CL_KERNEL_WORK_GROUP_SIZE
  // rounded down to CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE; 0 when the
  // runner has no such kernel.
  virtual int suggested_group_size() const { return 0; }
  // What this runner's kernel needs of an SM (kernel_resources.h), for the
  // tuner's model; all zero when the runner has no such kernel or its API
  // does not say.
  virtual KernelResources kernel_resources() const { return {}; }
};

}  // namespace gpucmp
