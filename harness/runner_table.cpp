#include "runner_table.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace gpucmp {

namespace {

std::vector<CatalogRow>& catalog() {
  static std::vector<CatalogRow> rows;
  return rows;
}

struct Registration {
  std::string api, file;
  RunnerRegistration fn;
  int phase;
};

std::vector<Registration>& registrations() {
  static std::vector<Registration> all;
  return all;
}

std::set<std::string>& registered_apis() {
  static std::set<std::string> done;
  return done;
}

}  // namespace

const std::vector<CatalogRow>& runner_catalog() { return catalog(); }

void add_catalog_row(CatalogRow row) { catalog().push_back(std::move(row)); }

void truncate_runner_catalog(std::size_t keep) {
  if (keep < catalog().size()) catalog().resize(keep);
}

void check_runner_catalog(const std::vector<std::string>& apis) {
  // workload -> api -> variants; shared variants of each workload.
  std::map<std::string, std::map<std::string, std::set<std::string>>> have;
  std::map<std::string, std::set<std::string>> shared;
  for (const CatalogRow& r : catalog()) {
    have[r.workload][r.api].insert(r.variant);
    if (r.shared) shared[r.workload].insert(r.variant);
  }
  for (const auto& [workload, by_api] : have)
    for (const std::string& api : apis) {
      const auto it = by_api.find(api);
      if (it == by_api.end())
        throw std::logic_error("workload " + workload + " has no " + api +
                               " runner (no GPUCMP_RUNNERS(\"" + api + "\") adds one)");
      for (const std::string& v : shared[workload])
        if (!it->second.count(v))
          throw std::logic_error("workload " + workload + ": shared variant " + v + " has no " +
                                 api + " runner");
    }
}

RunnerRegistrar::RunnerRegistrar(const char* api, const char* file, RunnerRegistration fn,
                                 int phase) {
  registrations().push_back({api, file, fn, phase});
}

void register_api_runners(const std::string& api) {
  if (!registered_apis().insert(api).second) return;
  std::vector<Registration> mine;
  for (const Registration& r : registrations())
    if (r.api == api) mine.push_back(r);
  std::stable_sort(mine.begin(), mine.end(), [](const Registration& a, const Registration& b) {
    return std::tie(a.phase, a.file) < std::tie(b.phase, b.file);
  });
  for (const Registration& r : mine) r.fn();
}

}  // namespace gpucmp
