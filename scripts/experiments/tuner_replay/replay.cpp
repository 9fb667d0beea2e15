// Replays gpucmp's local-size tuner (harness/local_choice.h) on stored 1-D
// sweeps: each input line is one kernel's every shape with its median time
// from a run's JSON (curves.py), and the tuner's timer answers from them, so
// the pick is the one the tuner makes on those timings with its budget.
// stdin:  source <TAB> global_x <TAB> registers <TAB> size:us[,size:us...]
// stdout: source, the shapes timed in order, the pick, pick / best, the best.
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "device_info.h"
#include "launch_shape.h"
#include "local_choice.h"

int main() {
  using namespace gpucmp;
  DeviceInfo dev;  // a Hopper part of 132 SMs, as the H100 SXM and H200 are
  dev.compute_units = 132;
  dev.cc_major = 9;
  dev.lanes_per_cu = 128;
  dev.max_group_size = dev.max_group_x = dev.max_group_y = 1024;
  std::string line;
  int bad = 0;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string source, times;
    long long global_x = 0;
    int registers = 0;
    if (!(std::getline(in, source, '\t') && in >> global_x >> registers >> times)) {
      std::cerr << "tuner_replay: error: cannot read line '" << line << "'\n";
      return 2;
    }
    std::map<int, double> us;
    std::istringstream list(times);
    for (std::string item; std::getline(list, item, ',');) {
      const auto colon = item.find(':');
      int size = 0;
      double t = 0;
      try {
        std::size_t used_size = 0, used_t = 0;
        if (colon != std::string::npos) {
          size = std::stoi(item.substr(0, colon), &used_size);
          t = std::stod(item.substr(colon + 1), &used_t);
        }
        if (colon == std::string::npos || used_size != colon || used_t != item.size() - colon - 1)
          size = 0;
      } catch (const std::exception&) {
        size = 0;
      }
      if (size <= 0 || !(t > 0)) {
        std::cerr << "tuner_replay: error: " << source << ": '" << item
                  << "' is not SIZE:MICROSECONDS with both above 0\n";
        return 2;
      }
      us[size] = t;
    }
    if (global_x <= 0 || us.empty()) {
      std::cerr << "tuner_replay: error: " << source << ": no shapes, or a global range below 1\n";
      return 2;
    }
    const GlobalSize global{1, global_x, 1};
    std::vector<LocalShape> all;
    for (const LocalShape& s : candidate_shapes(global, LocalLimits{}))
      if (s.x <= 1024) all.push_back(s);
    std::vector<int> order;
    const ShapeTimer timer = [&](const LocalShape& s) {
      order.push_back(s.x);
      const auto it = us.find(s.x);
      if (it == us.end()) {
        ++bad;
        return 1e30;
      }
      return it->second;
    };
    KernelResources kernel;
    kernel.registers = registers;
    const TunerResult r =
        tune_local(all, global, dev, tuner_budget(int(all.size())), timer, kernel);
    const auto best = std::min_element(
        us.begin(), us.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::ostringstream timed;
    for (std::size_t i = 0; i < order.size() && int(i) < r.measured; ++i)
      timed << (i ? "," : "") << order[i];
    std::cout << source << "\ttimed " << timed.str() << "\tpick " << r.shape.x << "\t"
              << us[r.shape.x] / best->second << "\tbest " << best->first << "\n";
  }
  if (bad) std::cerr << "tuner_replay: " << bad << " timings asked of shapes the sweep lacks\n";
  return bad ? 1 : 0;
}
