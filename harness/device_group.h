// The devices of one API that a split row uses, and the
// threads that drive them: one worker thread per device, which makes its
// device current once (CUDA: cudaSetDevice; OpenCL: the thread's session) and
// then runs every task for it, so a runner is made, used and destroyed on
// the thread of its device and the devices work concurrently.
#pragma once
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "device_info.h"

namespace gpucmp {

class DeviceGroup {
 public:
  virtual ~DeviceGroup() = default;
  virtual int size() const = 0;
  virtual const DeviceInfo& info(int i) const = 0;
  // "cuda:1", "opencl:1:0": how the options name device i.
  virtual std::string id(int i) const = 0;
  // Makes device i current on the calling thread.
  virtual void enter(int i) const = 0;
};

// "cuda:0 NVIDIA H200 (132 CUs x 128 lanes), cuda:1 ...": the group as the
// JSON context records it.
std::string describe_group(const DeviceGroup& group);

// Processing elements of a device: compute units x lanes per unit (at least 1).
double processing_elements(const DeviceInfo& dev);

class DeviceWorkers {
 public:
  explicit DeviceWorkers(const DeviceGroup& group);
  ~DeviceWorkers();
  DeviceWorkers(const DeviceWorkers&) = delete;
  DeviceWorkers& operator=(const DeviceWorkers&) = delete;

  int size() const { return int(workers_.size()); }
  // Runs task(i) on every device's thread at once and waits for all; then
  // rethrows the first exception one of them threw (by device order).
  void run_all(const std::function<void(int)>& task);
  // run_all in two steps, so that the calling thread works meanwhile (the
  // MPI split's rank 0 sends and receives while its device computes).
  void start_all(const std::function<void(int)>& task);
  void wait_all();

 private:
  struct Worker {
    std::thread thread;
    std::function<void()> task;  // empty: idle
    std::exception_ptr error;
    bool stop = false;
  };
  void loop(int i);

  const DeviceGroup& group_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<Worker> workers_;
  int busy_ = 0;
};

}  // namespace gpucmp
