// One kernel's work split across devices: a Runner whose
// "launch" is one whole job, as Takemoto et al. time it: on every device at
// once, upload what its part reads, run `launches` kernel launches on its
// part, download its part of the output; the job ends when the last device
// has its output back. Timed by the host's wall clock (the devices' clocks
// are not one clock), transfers included.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "device_group.h"
#include "runner.h"
#include "work_split.h"

namespace gpucmp {

// Makes device `device`'s runner of `part`; called on that device's thread.
using PartFactory = std::function<std::unique_ptr<Runner>(int device, const Part& part)>;

class SplitRunner final : public Runner {
 public:
  // parts[i] runs on device i; an empty part (count 0) leaves its device idle.
  SplitRunner(DeviceWorkers& workers, const PartFactory& make, const std::vector<Part>& parts,
              int launches);
  ~SplitRunner() override;  // each part is destroyed on its device's thread
  SplitRunner(const SplitRunner&) = delete;
  SplitRunner& operator=(const SplitRunner&) = delete;

  void upload() override;
  // `jobs` whole jobs, one after another: device_s = host_s = wall clock.
  BatchTiming time_batch(int jobs) override;
  void download() override;
  void flush_l2(std::size_t bytes) override;

 private:
  DeviceWorkers& workers_;
  std::vector<std::unique_ptr<Runner>> parts_;  // null: idle device
  int launches_;
};

// The calibrated split's probe: each device runs one job of its part with
// `probe_launches` launches (>= 1), its transfers and its launches timed
// apart, and the time of a `launches` job of that part is predicted as
// transfers + launches x (time of one launch). A launch is timed by the
// host's clock over the batch, waiting included: a CPU device's cost of
// starting a launch counts, which its profiling clock leaves out. Short for
// heavy kernels, where `launches` is large; linear in the launches.
struct ProbeResult {
  std::vector<double> transfer_s;  // upload + download of the part, per device
  std::vector<double> launch_s;    // one launch on the part (host clock)
  std::vector<double> job_s;       // the prediction
};
ProbeResult probe_devices(DeviceWorkers& workers, const PartFactory& make,
                          const std::vector<Part>& parts, int launches, int probe_launches);

}  // namespace gpucmp
