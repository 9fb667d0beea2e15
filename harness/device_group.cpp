#include "device_group.h"

#include <algorithm>

namespace gpucmp {

double processing_elements(const DeviceInfo& dev) {
  return double(std::max(1, dev.compute_units)) * double(std::max(1, dev.lanes_per_cu));
}

std::string describe_group(const DeviceGroup& group) {
  std::string out;
  for (int i = 0; i < group.size(); ++i) {
    const DeviceInfo& d = group.info(i);
    out += (i ? ", " : "") + group.id(i) + " " + d.name + " (" + std::to_string(d.compute_units) +
           " CUs x " + std::to_string(d.lanes_per_cu) + " lanes)";
  }
  return out;
}

DeviceWorkers::DeviceWorkers(const DeviceGroup& group) : group_(group), workers_(group.size()) {
  for (int i = 0; i < size(); ++i) workers_[i].thread = std::thread([this, i] { loop(i); });
}

DeviceWorkers::~DeviceWorkers() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (Worker& w : workers_) w.stop = true;
  }
  wake_.notify_all();
  for (Worker& w : workers_) w.thread.join();
}

void DeviceWorkers::loop(int i) {
  bool entered = false;
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return workers_[i].stop || bool(workers_[i].task); });
      if (!workers_[i].task) return;  // stopped and idle
      task = workers_[i].task;
    }
    std::exception_ptr error;
    try {
      if (!entered) group_.enter(i);  // a failure is reported by every task until it works
      entered = true;
      task();
    } catch (...) {
      error = std::current_exception();
    }
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      workers_[i].task = nullptr;
      workers_[i].error = error;
      --busy_;
    }
    done_.notify_all();
  }
}

void DeviceWorkers::run_all(const std::function<void(int)>& task) {
  start_all(task);
  wait_all();
}

void DeviceWorkers::start_all(const std::function<void(int)>& task) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (int i = 0; i < size(); ++i) {
    workers_[i].error = nullptr;
    workers_[i].task = [task, i] { task(i); };
  }
  busy_ = size();
  wake_.notify_all();
}

void DeviceWorkers::wait_all() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  for (Worker& w : workers_)
    if (w.error) std::rethrow_exception(w.error);
}

}  // namespace gpucmp
