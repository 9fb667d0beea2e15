#include "workload_registry.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "runner_table.h"

namespace gpucmp {

namespace {
struct Entry {
  std::string id;
  int rank;
  WorkloadFactory make;
};
std::vector<Entry>& entries() {
  static std::vector<Entry> e;
  return e;
}
}  // namespace

WorkloadRegistrar::WorkloadRegistrar(const char* id, int rank, WorkloadFactory make) {
  entries().push_back({id, rank, make});
}

std::vector<std::unique_ptr<Workload>> make_registered_workloads() {
  std::vector<Entry> sorted = entries();
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Entry& a, const Entry& b) { return a.rank < b.rank; });
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].rank == sorted[i - 1].rank)
      throw std::logic_error("workloads " + sorted[i - 1].id + " and " + sorted[i].id +
                             " share the rank " + std::to_string(sorted[i].rank));
  std::vector<std::unique_ptr<Workload>> out;
  out.reserve(sorted.size());
  for (const Entry& e : sorted) out.push_back(e.make());
  return out;
}

void check_workloads_registered(const std::vector<std::unique_ptr<Workload>>& workloads) {
  std::set<std::string> names;
  for (const auto& w : workloads) names.insert(w->name());
  for (const CatalogRow& row : runner_catalog())
    if (!names.count(row.workload))
      throw std::logic_error("workload " + row.workload + " has " + row.api +
                             " runners but is not registered (GPUCMP_WORKLOAD in its file)");
}

}  // namespace gpucmp
