// Batch timing for every CUDA runner: an event before the first launch and
// one after the last on the runner's stream, plus host wall clock.
#pragma once
#include <vector>

#include "handles.h"
#include "runner.h"

namespace gpucmp::cuda {

class TimedRunner : public Runner {
 public:
  TimedRunner();
  BatchTiming time_batch(int launches) final;
  void flush_l2(std::size_t bytes) final;
  // The whole device, every stream of the runner's (its halo's too).
  void settle() noexcept override { (void)cudaDeviceSynchronize(); }

 protected:
  // Enqueues one launch on stream().
  virtual void enqueue() = 0;
  cudaStream_t stream() const { return stream_.get(); }

 private:
  Stream stream_;
  Event start_, stop_;
  std::vector<Event> spans_;  // --launch-gaps: an event before and after each launch
  DevicePtr scratch_;         // cold mode: written to evict the L2
  std::size_t scratch_bytes_ = 0;
  unsigned char flushes_ = 0;
};

}  // namespace gpucmp::cuda
