// Unit tests of running a split, no device needed:
// DeviceWorkers' one thread per device, SplitRunner and the calibrated probe
// on fake runners, and resolve_split on a fake device group.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "device_group.h"
#include "errors.h"
#include "measure.h"
#include "split_options.h"
#include "split_rows.h"
#include "split_runner.h"
#include "work_split.h"
#include "workloads/worksize/bilinear.h"
#include "workloads/worksize/mmnaive.h"
#include "workloads/worksize/trapezoid.h"

namespace gpucmp {
namespace {

using std::chrono::milliseconds;
using Box = std::vector<long long>;
using Events = std::vector<std::string>;
using Counters = std::vector<std::pair<std::string, double>>;
using Threads = std::vector<std::thread::id>;

// ---- fakes: a device group whose enter() records the thread, runners that log ----

class FakeGroup final : public DeviceGroup {
 public:
  explicit FakeGroup(std::vector<DeviceInfo> infos)
      : infos_(std::move(infos)), entered_(infos_.size()) {}
  explicit FakeGroup(int n) : FakeGroup(std::vector<DeviceInfo>(n)) {}
  int size() const override { return int(infos_.size()); }
  const DeviceInfo& info(int i) const override { return infos_.at(i); }
  std::string id(int i) const override { return "fake:" + std::to_string(i); }
  void enter(int i) const override {
    const std::lock_guard<std::mutex> lock(mutex_);
    entered_.at(i).push_back(std::this_thread::get_id());
  }
  Threads entered(int i) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return entered_.at(i);
  }

 private:
  std::vector<DeviceInfo> infos_;
  mutable std::mutex mutex_;
  mutable std::vector<Threads> entered_;
};

TEST(DeviceWorkers, EachDevicesTasksRunOnTheThreadThatEnteredIt) {
  const FakeGroup group(3);
  DeviceWorkers workers(group);
  ASSERT_EQ(workers.size(), 3);
  std::vector<Threads> ran(3);
  for (int round = 0; round < 4; ++round)
    workers.run_all([&ran](int i) { ran[i].push_back(std::this_thread::get_id()); });
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(group.entered(i).size(), 1u) << "device " << i << " entered once";
    const std::thread::id thread = group.entered(i)[0];
    EXPECT_NE(thread, std::this_thread::get_id());
    EXPECT_EQ(ran[i], Threads(4, thread)) << "device " << i;
    for (int j = 0; j < i; ++j) EXPECT_NE(thread, group.entered(j)[0]) << i << " and " << j;
  }
}

TEST(DeviceWorkers, DevicesRunConcurrently) {
  const FakeGroup group(2);
  DeviceWorkers workers(group);
  std::mutex mutex;
  std::condition_variable cv;
  int arrived = 0;
  std::vector<int> met(2, 0);
  // Each task waits until both have arrived, only possible when both run at
  // once; 10 s at most, so that a serial run fails instead of hanging.
  workers.run_all([&](int i) {
    std::unique_lock<std::mutex> lock(mutex);
    ++arrived;
    cv.notify_all();
    met[i] = int(cv.wait_for(lock, std::chrono::seconds(10), [&] { return arrived == 2; }));
  });
  EXPECT_EQ(met, (std::vector<int>{1, 1}));
}

TEST(DeviceWorkers, AnExceptionIsRethrownAfterAllFinishedAndWorkersStayUsable) {
  const FakeGroup group(2);
  DeviceWorkers workers(group);
  std::vector<int> finished(2, 0);
  std::string rethrown = "nothing";
  try {
    workers.run_all([&finished](int i) {
      if (i == 1) throw std::runtime_error("device 1 failed");
      std::this_thread::sleep_for(milliseconds(50));
      finished[i] = 1;
    });
  } catch (const std::runtime_error& e) {
    rethrown = e.what();
    EXPECT_EQ(finished, (std::vector<int>{1, 0})) << "device 0 finished before the rethrow";
  }
  EXPECT_EQ(rethrown, "device 1 failed");
  try {  // both throw: the first by device order
    workers.run_all([](int i) { throw std::runtime_error("device " + std::to_string(i)); });
  } catch (const std::runtime_error& e) {
    rethrown = e.what();
  }
  EXPECT_EQ(rethrown, "device 0");
  // Still usable, on the same threads, and a clean run throws nothing.
  Threads ran(2);
  workers.run_all([&ran](int i) { ran[i] = std::this_thread::get_id(); });
  EXPECT_EQ(ran, (Threads{group.entered(0).at(0), group.entered(1).at(0)}));
}

// What a fake runner saw, in order ("upload", "batch:N", "download",
// "flush:B", "destroyed"), and the threads it was made and destroyed on.
struct RunnerLog {
  int made = 0;
  Part part;
  Events events;
  std::thread::id made_on, destroyed_on;
};

// A batch reports launch_s a launch on the "device" clock and launch_s +
// overhead_s on the host's; upload and download each take transfer_ms.
class FakeRunner final : public Runner {
 public:
  FakeRunner(RunnerLog& log, double launch_s, double overhead_s, int transfer_ms)
      : log_(log), launch_s_(launch_s), overhead_s_(overhead_s), transfer_ms_(transfer_ms) {}
  ~FakeRunner() override {
    log_.events.emplace_back("destroyed");
    log_.destroyed_on = std::this_thread::get_id();
  }
  void upload() override { transfer("upload"); }
  BatchTiming time_batch(int n) override {
    log_.events.push_back("batch:" + std::to_string(n));
    return {n * launch_s_, n * (launch_s_ + overhead_s_), n};
  }
  void download() override { transfer("download"); }
  void flush_l2(std::size_t bytes) override {
    log_.events.push_back("flush:" + std::to_string(bytes));
  }

 private:
  void transfer(const char* what) {
    log_.events.emplace_back(what);
    std::this_thread::sleep_for(milliseconds(transfer_ms_));
  }
  RunnerLog& log_;
  double launch_s_, overhead_s_;
  int transfer_ms_;
};

// Device i's runners log to logs[i] (written only on device i's thread).
struct FakeRunners {
  std::vector<RunnerLog> logs;
  std::vector<double> launch_s;    // seconds a launch and unit of the part (row, column, item)
  std::vector<double> overhead_s;  // host seconds a launch, whatever the part (0 by default)
  int transfer_ms = 0;
  explicit FakeRunners(std::vector<double> seconds)
      : logs(seconds.size()), launch_s(std::move(seconds)) {}
  PartFactory factory() {
    return [this](int device, const Part& part) {
      RunnerLog& log = logs.at(device);
      ++log.made;
      log.part = part;
      log.made_on = std::this_thread::get_id();
      return std::make_unique<FakeRunner>(log, launch_s.at(device) * double(part.count),
                                          overhead_s.empty() ? 0.0 : overhead_s.at(device),
                                          transfer_ms);
    };
  }
};

Box first_count(const Part& p) { return {p.first, p.count}; }
Box firsts_and_counts(const std::vector<Part>& parts) {
  Box out;
  for (const Part& p : parts) out.insert(out.end(), {p.first, p.count});
  return out;
}

TEST(SplitRunner, EachJobUploadsLaunchesAndDownloadsOnEveryPart) {
  const FakeGroup group(3);
  DeviceWorkers workers(group);
  FakeRunners fakes({1e-3, 1e-3, 1e-3});
  const std::vector<Part> parts{
      {SplitAxis::y, 0, 0}, {SplitAxis::y, 0, 32}, {SplitAxis::y, 32, 96}};
  {
    SplitRunner runner(workers, fakes.factory(), parts, 5);
    EXPECT_EQ(fakes.logs[0].made, 0) << "an empty part makes no runner";
    for (int i = 1; i < 3; ++i) {
      EXPECT_EQ(fakes.logs[i].made, 1);
      EXPECT_EQ(first_count(fakes.logs[i].part), first_count(parts[i]));
      EXPECT_EQ(fakes.logs[i].made_on, group.entered(i).at(0)) << "made on its device's thread";
    }
    runner.upload();
    const BatchTiming t = runner.time_batch(3);
    EXPECT_EQ(t.launches, 3);
    EXPECT_GT(t.host_s, 0.0);
    EXPECT_EQ(t.device_s, t.host_s) << "one wall clock";
    runner.download();
    runner.flush_l2(1024);
  }
  EXPECT_TRUE(fakes.logs[0].events.empty());
  Events want{"upload"};
  for (int job = 0; job < 3; ++job) want.insert(want.end(), {"upload", "batch:5", "download"});
  want.insert(want.end(), {"download", "flush:1024", "destroyed"});
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(fakes.logs[i].events, want) << "device " << i;
    EXPECT_EQ(fakes.logs[i].destroyed_on, group.entered(i).at(0)) << "destroyed on its thread";
  }
}

TEST(SplitRunner, ProbePredictsJobsFromTransfersAndOneLaunch) {
  const FakeGroup group(2);
  DeviceWorkers workers(group);
  FakeRunners fakes({0.25 / 64, 0.75 / 64});  // 0.25 and 0.75 s a launch on 64 columns
  fakes.transfer_ms = 10;                     // upload and download: 20 ms of probed transfers
  const std::vector<Part> equal{{SplitAxis::x, 0, 64}, {SplitAxis::x, 64, 64}};
  const ProbeResult r = probe_devices(workers, fakes.factory(), equal, 40, 4);
  EXPECT_EQ(r.launch_s, (std::vector<double>{0.25, 0.75}));
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE("device " + std::to_string(i));
    EXPECT_GE(r.transfer_s.at(i), 0.020);
    EXPECT_LT(r.transfer_s.at(i), 1.0);
    EXPECT_DOUBLE_EQ(r.job_s.at(i), r.transfer_s.at(i) + 40 * r.launch_s.at(i));
    EXPECT_EQ(fakes.logs[i].made, 1);
    EXPECT_EQ(first_count(fakes.logs[i].part), first_count(equal[i]));
    EXPECT_EQ(fakes.logs[i].events,
              (Events{"upload", "batch:1", "upload", "batch:4", "download", "destroyed"}));
  }
}

// ---- resolve_split on a fake group ----

// resolve_split of `units` in granules of 16, 10 launches a job (runners of
// `fakes`, else of 1 s a launch and unit), and a check that the parts tile
// [0, units) in device order in whole granules.
SplitChoice resolve(const SplitSpec& spec, const FakeGroup& group, SplitAxis axis = SplitAxis::y,
                    double ops = 0, FakeRunners* fakes = nullptr, long long units = 256) {
  FakeRunners own(std::vector<double>(group.size(), 1.0));
  ThreadSplitExecutor executor(group);
  const SplitRow row{"fake", (fakes ? *fakes : own).factory(), {}};
  SplitChoice c = resolve_split(spec, axis, executor, row, units, 16, ops, 10);
  long long next = 0;
  for (const Part& part : c.parts) {
    EXPECT_EQ(part.axis, axis);
    EXPECT_EQ(part.first, next);
    EXPECT_TRUE(part.count >= 0 && part.count % 16 == 0) << part.count;
    next += part.count;
  }
  EXPECT_EQ(next, units);
  EXPECT_EQ(int(c.parts.size()), group.size());
  return c;
}

DeviceInfo device(int compute_units, int lanes) {
  DeviceInfo d;
  d.compute_units = compute_units;
  d.lanes_per_cu = lanes;
  return d;
}

TEST(ResolveSplit, FixedShareOfTheFirstDeviceTheRestEqualAndItsCounters) {
  // 16 granules: 0.3 x 16 = 4.8 -> 5; three devices 0.4, 0.3, 0.3: 6.4 -> 6, 11.2 -> 11.
  const SplitChoice c = resolve({true, SplitRule::equal, 0.3}, FakeGroup(2));
  EXPECT_EQ(firsts_and_counts(c.parts), (Box{0, 80, 80, 176}));
  EXPECT_TRUE(c.counters.empty());
  Measurement m;
  add_split_counters(m, c, 10, 256);
  EXPECT_EQ(m.counters, (Counters{{"devices", 2},
                                  {"launches_per_job", 10},
                                  {"share_0", 80.0 / 256},
                                  {"share_1", 176.0 / 256}}));
  EXPECT_EQ(firsts_and_counts(resolve({true, SplitRule::equal, 0.4}, FakeGroup(3)).parts),
            (Box{0, 96, 96, 80, 176, 80}));
  EXPECT_EQ(firsts_and_counts(resolve({true, SplitRule::equal, 0}, FakeGroup(2)).parts),
            (Box{0, 0, 0, 256}));
  EXPECT_EQ(
      firsts_and_counts(resolve({true, SplitRule::equal, 1}, FakeGroup(2), SplitAxis::x).parts),
      (Box{0, 256, 256, 0}));
}

TEST(ResolveSplit, PeRatioAndStudyKUseComputeUnitsTimesLanes) {
  const FakeGroup group({device(4, 8), device(12, 8)});  // 32 and 96 PEs: 1:3
  EXPECT_EQ(firsts_and_counts(resolve({false, SplitRule::pe_ratio, 0}, group).parts),
            (Box{0, 64, 64, 192}));
  EXPECT_EQ(firsts_and_counts(resolve({false, SplitRule::equal, 0}, group).parts),
            (Box{0, 128, 128, 128}));
  // Medium (k = 0.75): the smaller device gets 0.25 x 0.75 = 3 granules.
  const SplitChoice k = resolve({false, SplitRule::study_k, 0}, group, SplitAxis::x, 1e10);
  EXPECT_EQ(firsts_and_counts(k.parts), (Box{0, 48, 48, 208}));
  EXPECT_EQ(k.counters, (Counters{{"study_k", 0.75}}));
}

TEST(ResolveSplit, CalibratedSharesByProbedThroughput) {
  FakeRunners fakes({1.0 / 128, 3.0 / 128});  // 1 and 3 s a launch on the equal part
  const SplitChoice c =
      resolve({false, SplitRule::calibrated, 0}, FakeGroup(2), SplitAxis::y, 0, &fakes);
  EXPECT_EQ(firsts_and_counts(c.parts), (Box{0, 192, 192, 64}));
  ASSERT_EQ(c.counters.size(), 5u);
  const std::vector<std::string> names{"probe_fixed_ms_0", "probe_all_ms_0", "probe_fixed_ms_1",
                                       "probe_all_ms_1", "probe_launches"};
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(c.counters[i].first, names[i]);
  // No fixed cost; a 10-launch job of all 256 rows: 10 x 2 s and 10 x 6 s.
  EXPECT_NEAR(c.counters[0].second, 0.0, 20.0);      // ms: real transfers (ASan: slower)
  EXPECT_NEAR(c.counters[1].second, 20000.0, 20.0);  // 0.1%
  EXPECT_NEAR(c.counters[3].second, 60000.0, 60.0);  // 0.1%
  EXPECT_EQ(c.counters[4].second, 1.0) << "10 launches / 10";
  // Probed on the equal part, then on its first granule.
  EXPECT_EQ(fakes.logs[1].made, 2);
  EXPECT_EQ(first_count(fakes.logs[1].part), (Box{128, 16}));
}

// Devices of one speed (1 ms a launch and unit) get the equal split, also
// when the "equal" parts are not: 4 granules over 3 devices are 1, 2, 1, and
// the cost is per unit (64 units: 1, 2, 1 granules).
TEST(ResolveSplit, CalibratedGivesDevicesOfOneSpeedTheEqualSplit) {
  FakeRunners fakes({1e-3, 1e-3, 1e-3});
  const SplitChoice c =
      resolve({false, SplitRule::calibrated, 0}, FakeGroup(3), SplitAxis::y, 0, &fakes, 64);
  EXPECT_EQ(firsts_and_counts(c.parts), (Box{0, 16, 16, 32, 48, 16}));
  for (int i = 0; i < 3; ++i) EXPECT_GT(fakes.logs[i].part.count, 0) << "device " << i;
}

// A device with a fixed cost a launch (a CPU's start of a launch) larger
// than the whole job on the other: it gets nothing, where a split by
// throughput alone would give it a share (the GPU + PoCL pair, 2026-11-23).
TEST(ResolveSplit, CalibratedLeavesADeviceIdleWhenItsFixedCostExceedsTheGain) {
  FakeRunners fakes({1e-6, 1e-4});  // device 1: 100x slower a unit
  fakes.overhead_s = {0.0, 0.05};   // and 50 ms to start a launch
  const SplitChoice c =
      resolve({false, SplitRule::calibrated, 0}, FakeGroup(2), SplitAxis::x, 0, &fakes);
  EXPECT_EQ(firsts_and_counts(c.parts), (Box{0, 256, 256, 0}));
  EXPECT_NEAR(c.counters[2].second, 10 * 50.0, 10.0) << "device 1's fixed ms: 10 launches";
  // Without the fixed cost the same speeds share 100:1 (in whole granules).
  FakeRunners plain({1e-6, 1e-4});
  const SplitChoice p =
      resolve({false, SplitRule::calibrated, 0}, FakeGroup(2), SplitAxis::x, 0, &plain, 4096);
  EXPECT_EQ(firsts_and_counts(p.parts), (Box{0, 4048, 4048, 48}));
}

// Fewer work-groups than devices: a device would be probed on nothing (and
// its near-zero time would win it all the work), so it is a usage error.
TEST(ResolveSplit, CalibratedRefusesADeviceWithNothingToProbe) {
  FakeRunners fakes({1e-3, 1e-3, 1e-3});
  try {
    resolve({false, SplitRule::calibrated, 0}, FakeGroup(3), SplitAxis::y, 0, &fakes, 32);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--split calibrated: 2 work-groups along y cannot give each of 3 devices one to "
                 "probe");
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(fakes.logs[i].made, 0) << "device " << i;
}

}  // namespace
}  // namespace gpucmp
