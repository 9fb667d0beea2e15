#include "skip_log.h"

namespace gpucmp {

SkipLog& skip_log() {
  static SkipLog log;
  return log;
}

void SkipLog::skipped(const BenchName& name, const std::string& reason,
                      const std::string& message) {
  const std::string key = name.str();
  // Repetitions skip the same benchmark again: it is counted once.
  if (skips_.emplace(key, Skip{name.api, reason}).second) order_.push_back(key);
  dropped_.emplace(key, message);
}

void SkipLog::abandoned(const BenchName& name, const std::string& message) {
  dropped_.emplace(name.str(), message);
}

bool SkipLog::drops(const std::string& function_name, const std::string& message) const {
  return dropped_.count({function_name, message}) > 0;
}

std::string SkipLog::reason(const std::string& function_name) const {
  const auto it = skips_.find(function_name);
  return it == skips_.end() ? "" : it->second.reason;
}

std::vector<std::pair<std::string, std::vector<std::pair<std::string, int>>>> SkipLog::by_api()
    const {
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, int>>>> apis;
  for (const auto& name : order_) {
    const Skip& s = skips_.at(name);
    auto api = apis.begin();
    while (api != apis.end() && api->first != s.api) ++api;
    if (api == apis.end()) api = apis.insert(apis.end(), {s.api, {}});
    auto reason = api->second.begin();
    while (reason != api->second.end() && reason->first != s.reason) ++reason;
    if (reason == api->second.end()) reason = api->second.insert(reason, {s.reason, 0});
    ++reason->second;
  }
  return apis;
}

namespace {
std::string benchmarks(int n) {
  return std::to_string(n) + (n == 1 ? " benchmark" : " benchmarks");
}
}  // namespace

std::string SkipLog::summary() const {
  std::string out;
  for (const auto& [api, reasons] : by_api()) {
    out += (out.empty() ? "" : "; ") + api + ": ";
    for (std::size_t i = 0; i < reasons.size(); ++i)
      out += (i ? ", " : "") + reasons[i].first + " (" + benchmarks(reasons[i].second) + ")";
  }
  return out.empty() ? "none" : out;
}

std::string SkipLog::names() const {
  std::string out;
  for (const auto& name : order_) out += (out.empty() ? "" : ", ") + name;
  return out;
}

std::vector<std::string> SkipLog::warnings() const {
  std::vector<std::string> lines;
  for (const auto& [api, reasons] : by_api()) {
    int total = 0;
    for (const auto& r : reasons) total += r.second;
    std::string line = api + ": " + benchmarks(total) + " skipped: ";
    if (reasons.size() == 1) {
      line += reasons[0].first;
    } else {
      for (std::size_t i = 0; i < reasons.size(); ++i)
        line += (i ? "; " : "") + reasons[i].first + " (" + std::to_string(reasons[i].second) + ")";
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace gpucmp
