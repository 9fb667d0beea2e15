// A resident split's runner in one process (split_executor.h): part i on
// device i's worker thread, each keeping its data on its device from
// upload() to download(); one launch is one launch of every part at once,
// the parts trading their halos through an in-process hub (thread_halo.h),
// which halo_link() returns on their threads while they are made. Timed as
// the MPI split times it: the host's clock from before every part starts
// its batch to after the last has finished. A part that fails aborts the
// hub, so that no other waits for its halos forever, and the first error is
// rethrown.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "device_group.h"
#include "runner.h"
#include "split_runner.h"
#include "thread_halo.h"

namespace gpucmp {

class ResidentRunner final : public Runner {
 public:
  // parts[i] on device i; every part must be non-empty.
  ResidentRunner(DeviceWorkers& workers, const PartFactory& make, const std::vector<Part>& parts);
  ~ResidentRunner() override;  // each part destroyed on its device's thread
  ResidentRunner(const ResidentRunner&) = delete;
  ResidentRunner& operator=(const ResidentRunner&) = delete;

  void upload() override;
  BatchTiming time_batch(int launches) override;
  void download() override;
  void flush_l2(std::size_t bytes) override;

 private:
  // task(i) on every part i's thread at once; a part that throws aborts the
  // hub, and the first error that was not an abort is rethrown.
  void on_parts(const std::function<void(int)>& task);
  void release() noexcept;  // every part destroyed on its device's thread

  DeviceWorkers& workers_;
  ThreadHaloHub hub_;
  std::vector<std::unique_ptr<Runner>> parts_;
};

}  // namespace gpucmp
