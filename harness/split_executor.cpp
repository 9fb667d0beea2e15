#include "split_executor.h"

#include <map>
#include <stdexcept>
#include <utility>

#include "errors.h"
#include "resident_runner.h"

namespace gpucmp {

namespace {

std::map<std::string, SplitRowMaker>& row_makers() {
  static std::map<std::string, SplitRowMaker> makers;
  return makers;
}

struct MpiSplit {
  int ranks = 0;  // 0: in-process
  std::map<std::string, std::unique_ptr<SplitExecutor>> executors;
  std::map<std::string, std::string> unavailable;
};
MpiSplit& mpi_split() {
  static MpiSplit split;
  return split;
}

}  // namespace

std::unique_ptr<Runner> ThreadSplitExecutor::resident_runner(const SplitRow& row,
                                                             const std::vector<Part>& parts) {
  return std::make_unique<ResidentRunner>(workers_, row.make, parts);
}

void add_split_row(const std::string& name, SplitRowMaker make) {
  row_makers()[name] = std::move(make);
}

SplitRow make_split_row(const std::string& name) {
  const auto it = row_makers().find(name);
  if (it == row_makers().end()) throw std::out_of_range("no split row " + name);
  return it->second();
}

void set_mpi_split(int ranks, const std::string& api, std::unique_ptr<SplitExecutor> executor,
                   const std::string& unavailable) {
  MpiSplit& s = mpi_split();
  s.ranks = ranks;
  if (executor)
    s.executors[api] = std::move(executor);
  else
    s.unavailable[api] = unavailable;
}

int mpi_split_ranks() { return mpi_split().ranks; }

SplitExecutor& split_executor(const ApiSet& apis, const std::string& api) {
  MpiSplit& mpi = mpi_split();
  if (mpi.ranks > 0) {
    if (const auto it = mpi.executors.find(api); it != mpi.executors.end()) return *it->second;
    const auto why = mpi.unavailable.find(api);
    throw Unavailable(why != mpi.unavailable.end() ? why->second
                                                   : api + " has no devices for split rows");
  }
  static std::map<const DeviceGroup*, std::unique_ptr<SplitExecutor>> executors;
  const auto it = apis.find(api);
  const DeviceGroup* group = it == apis.end() ? nullptr : it->second->split_group();
  if (!group) throw Unavailable(api + " has no devices for split rows");
  if (group->size() < 2)
    throw Unavailable("split rows need 2 or more devices; " + api + " has " +
                      std::to_string(group->size()) + " (name them with --" +
                      (api == "cuda" ? "cuda" : "cl") +
                      "-split-devices; a device may be named twice)");
  auto& ex = executors[group];
  if (!ex) ex = std::make_unique<ThreadSplitExecutor>(*group);
  return *ex;
}

}  // namespace gpucmp
