#include "launch_floor.h"

#include <iostream>
#include <map>
#include <vector>

#include "errors.h"
#include "stats.h"
#include "workloads/roofline/ceiling.h"

namespace gpucmp {

namespace {

double probe(const std::string& api) {
  const ceiling::Runners::Row* row = nullptr;
  for (const auto& r : ceiling::runners().rows())
    if (r.api == api && r.variant.name == "launch") row = &r;
  if (!row) throw ApiError("no ceiling/" + api + "/launch runner is registered");
  ceiling::Problem p = ceiling::make_problem(1);  // outlives the runner, which holds it
  const auto runner = row->make(p, row->variant);
  runner->upload();
  runner->time_batch(1);  // lazy loading and first touch
  runner->time_batch(1);
  std::vector<double> per_launch;
  for (int i = 0; i < kFloorBatches; ++i)
    per_launch.push_back(runner->time_batch(kFloorBatch).device_s / kFloorBatch);
  std::fill(p.out.begin(), p.out.end(), 0xffffffffU);
  runner->download();
  const Validation v = ceiling::validate(p, row->variant);
  if (!v.ok) throw ApiError("the launch kernel's output is wrong: " + v.describe());
  return summarize(per_launch).median;
}

}  // namespace

double launch_floor_s(const std::string& api, const DeviceInfo& dev) {
  static std::map<std::string, double> floors;  // api|device -> seconds, < 0: failed
  const std::string key = api + "|" + dev.pci_bus_id + "|" + dev.name;
  const auto it = floors.find(key);
  if (it != floors.end()) return it->second;
  double s = -1;
  try {
    s = probe(api);
  } catch (const std::exception& e) {
    std::cerr << "gpucmp-bench: warning: " << api << ": launch floor not measured (" << e.what()
              << "); its rows carry no launch-bound mark\n";
  }
  floors[key] = s;
  return s;
}

LaunchBound launch_bound(double seconds_per_launch, int commands, double floor_s) {
  LaunchBound b;
  b.ratio = seconds_per_launch / (double(commands > 0 ? commands : 1) * floor_s);
  b.bound = b.ratio <= 1.0 + kLaunchBoundMargin;
  return b;
}

}  // namespace gpucmp
