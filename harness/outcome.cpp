#include "outcome.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "launch_floor.h"
#include "stats.h"

namespace gpucmp {

Outcome& outcome() {
  static Outcome o;
  return o;
}

void Outcome::fail(ExitCode code, const std::string& line) {
  exit_code_ = std::max(exit_code_, int(code));
  failures_.push_back(line);
}

namespace {
std::string format_time(double s) {
  char buf[32];
  if (s >= 1)
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  return buf;
}
std::string format_pct(double p) {
  if (p <= 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", p);
  return buf;
}
}  // namespace

void Outcome::print_paired_summary(std::ostream& out) const {
  struct Side {
    std::vector<double> t, p;
    int bound = 0;  // repetitions marked launch-bound
    // The time, marked '*' when most repetitions were launch-bound.
    std::string time(double median) const {
      return format_time(median) + (2 * bound > int(t.size()) ? "*" : " ");
    }
  };
  std::map<std::string, std::map<std::string, Side>> by_key;  // key -> api -> samples
  std::vector<std::string> order;
  for (const auto& r : results_) {
    const auto key = r.name.pair_key();
    if (!by_key.count(key)) order.push_back(key);
    auto& side = by_key[key][r.name.api];
    side.t.push_back(r.seconds);
    side.p.push_back(r.pct_peak);
    side.bound += r.launch_bound ? 1 : 0;
  }
  std::size_t width = 9;
  for (const auto& k : order) width = std::max(width, k.size());
  char line[512];
  bool header = false, marked = false;
  for (const auto& key : order) {
    const auto& apis = by_key[key];
    if (!apis.count("cuda") || !apis.count("opencl")) continue;
    if (!header) {
      out << "\nPaired summary (median over repetitions; ratio = OpenCL time / CUDA time)\n";
      std::snprintf(line, sizeof line, "%-*s %13s %13s %8s %9s %9s\n", int(width), "benchmark",
                    "CUDA ", "OpenCL ", "ratio", "CUDA pk", "OCL pk");
      out << line;
      header = true;
    }
    const Side &cs = apis.at("cuda"), &os = apis.at("opencl");
    const auto c = summarize(cs.t), o = summarize(os.t);
    const auto cp = summarize(cs.p), op = summarize(os.p);
    const std::string ct = cs.time(c.median), ot = os.time(o.median);
    marked = marked || ct.back() == '*' || ot.back() == '*';
    std::snprintf(line, sizeof line, "%-*s %13s %13s %8.2f %9s %9s\n", int(width), key.c_str(),
                  ct.c_str(), ot.c_str(), o.median / c.median, format_pct(cp.median).c_str(),
                  format_pct(op.median).c_str());
    out << line;
  }
  if (!header) out << "\nPaired summary: no benchmark ran on both CUDA and OpenCL.\n";
  if (marked)
    out << "* launch-bound: within " << int(kLaunchBoundMargin * 100)
        << "% of its API's launch floor (counter launch_floor_us): the time is the API's launch "
           "rate, not the kernel's speed\n";
}

}  // namespace gpucmp
