#include "split_runner.h"

#include <chrono>

namespace gpucmp {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

SplitRunner::SplitRunner(DeviceWorkers& workers, const PartFactory& make,
                         const std::vector<Part>& parts, int launches)
    : workers_(workers), parts_(parts.size()), launches_(launches) {
  workers_.run_all([&](int i) {
    if (i < int(parts.size()) && parts[i].count != 0) parts_[i] = make(i, parts[i]);
  });
}

SplitRunner::~SplitRunner() {
  try {
    workers_.run_all([this](int i) {
      if (i < int(parts_.size())) parts_[i].reset();
    });
  } catch (...) {  // a runner's destructor does not throw; nothing to report here
  }
}

void SplitRunner::upload() {
  workers_.run_all([this](int i) {
    if (i < int(parts_.size()) && parts_[i]) parts_[i]->upload();
  });
}

BatchTiming SplitRunner::time_batch(int jobs) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int job = 0; job < jobs; ++job)
    workers_.run_all([this](int i) {
      if (i >= int(parts_.size()) || !parts_[i]) return;
      parts_[i]->upload();
      parts_[i]->time_batch(launches_);
      parts_[i]->download();
    });
  const double wall = seconds_since(t0);
  return {wall, wall, jobs};
}

void SplitRunner::download() {
  workers_.run_all([this](int i) {
    if (i < int(parts_.size()) && parts_[i]) parts_[i]->download();
  });
}

void SplitRunner::flush_l2(std::size_t bytes) {
  workers_.run_all([this, bytes](int i) {
    if (i < int(parts_.size()) && parts_[i]) parts_[i]->flush_l2(bytes);
  });
}

ProbeResult probe_devices(DeviceWorkers& workers, const PartFactory& make,
                          const std::vector<Part>& parts, int launches, int probe_launches) {
  const std::size_t n = parts.size();
  ProbeResult r{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
  workers.run_all([&](int i) {
    if (i >= int(n)) return;
    const std::unique_ptr<Runner> runner = make(i, parts[i]);
    runner->upload();  // allocation and a first upload, not probed
    runner->time_batch(1);
    const auto t0 = std::chrono::steady_clock::now();
    runner->upload();
    const double upload_s = seconds_since(t0);
    const BatchTiming batch = runner->time_batch(probe_launches);
    const auto t1 = std::chrono::steady_clock::now();
    runner->download();
    r.transfer_s[i] = upload_s + seconds_since(t1);
    r.launch_s[i] = batch.host_s / probe_launches;
    r.job_s[i] = r.transfer_s[i] + launches * r.launch_s[i];
  });
  return r;
}

}  // namespace gpucmp
