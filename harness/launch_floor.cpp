#include "launch_floor.h"

#include <iostream>
#include <set>
#include <vector>

#include "errors.h"
#include "interrupt.h"
#include "stats.h"
#include "workloads/roofline/ceiling.h"

namespace gpucmp {

namespace {

double probe(const std::string& api) {
  const ceiling::Runners::Row* row = nullptr;
  for (const auto& r : ceiling::runners().rows())
    if (r.api == api && r.variant.name == "launch") row = &r;
  if (!row) throw ApiError("no ceiling/" + api + "/launch runner is registered");
  // One block; the l2 buffer the runners upload is not read by `launch`.
  ceiling::Problem p;
  p.blocks = 1;
  p.words.assign(1, 0);
  p.out.assign(p.threads(), 0xffffffffU);
  const auto runner = row->make(p, row->variant);  // holds p: declared after it
  runner->upload();
  runner->time_batch(kFloorBatch);  // warm-up: first launches, clocks
  std::vector<double> per_launch;
  per_launch.reserve(kFloorBatches);
  for (int i = 0; i < kFloorBatches; ++i)
    per_launch.push_back(runner->time_batch(kFloorBatch).device_s / kFloorBatch);
  std::fill(p.out.begin(), p.out.end(), 0xffffffffU);
  runner->download();
  const Validation v = ceiling::validate(p, row->variant);
  if (!v.ok) throw ApiError("the launch kernel's output is wrong: " + v.describe());
  return summarize(per_launch).median;
}

}  // namespace

double launch_floor_s(const std::string& api) {
  static std::set<std::string> failed;  // said once, not probed again
  if (failed.count(api)) return -1;
  try {
    return probe(api);
  } catch (const interrupt::Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    failed.insert(api);
    std::cerr << "gpucmp-bench: warning: " << api << ": launch floor not measured (" << e.what()
              << "); its rows carry no launch-bound mark\n";
    return -1;
  }
}

LaunchBound launch_bound(double seconds_per_launch, int commands, double floor_s) {
  LaunchBound b;
  b.ratio = seconds_per_launch / (double(commands > 0 ? commands : 1) * floor_s);
  b.bound = b.ratio <= 1.0 + kLaunchBoundMargin;
  return b;
}

}  // namespace gpucmp
