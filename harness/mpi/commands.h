// What the ranks do for rank 0's commands (harness/mpi_split.h). Every rank
// runs every command: rank 0 through RanksExecutor (its split rows' calls),
// the others in serve(); each ends with the ranks' statuses gathered on rank
// 0, which rethrows its own error or raises the first rank's.
#pragma once
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../device_group.h"
#include "../split_executor.h"

namespace gpucmp::mpi {

// This rank's split device of one API and its worker thread.
struct LocalDevice {
  std::unique_ptr<DeviceGroup> group;  // one device
  std::unique_ptr<DeviceWorkers> workers;
};
// By API name; filled by install_executors on every rank.
std::map<std::string, LocalDevice>& local_devices();

// Rank 0's view of the split devices: one per rank, as each described its own.
class RanksGroup final : public DeviceGroup {
 public:
  RanksGroup(std::vector<DeviceInfo> infos, std::vector<std::string> ids)
      : infos_(std::move(infos)), ids_(std::move(ids)) {}
  int size() const override { return int(infos_.size()); }
  const DeviceInfo& info(int i) const override { return infos_.at(i); }
  std::string id(int i) const override { return "rank" + std::to_string(i) + ":" + ids_.at(i); }
  void enter(int i) const override;  // a rank's device is entered by that rank only: throws

 private:
  std::vector<DeviceInfo> infos_;
  std::vector<std::string> ids_;
};

// The executor of `api`'s split rows on rank 0 (split_executor.h).
class RanksExecutor final : public SplitExecutor {
 public:
  RanksExecutor(std::string api, RanksGroup group)
      : api_(std::move(api)), group_(std::move(group)) {}
  const DeviceGroup& group() const override { return group_; }
  std::unique_ptr<Runner> runner(const SplitRow& row, const std::vector<Part>& parts,
                                 int launches) override;
  ProbeResult probe(const SplitRow& row, const std::vector<Part>& parts, int launches,
                    int probe_launches) override;
  std::unique_ptr<Runner> resident_runner(const SplitRow& row,
                                          const std::vector<Part>& parts) override;

 private:
  std::string api_;
  RanksGroup group_;
};

// Runs `command` on this rank. `row`: rank 0's row for "open" and "probe"
// (the others make it by name). Returns what rank 0 asked for (the jobs'
// wall time, the probe's timings).
nlohmann::json execute(const nlohmann::json& command, const SplitRow* row = nullptr);

// True from set_in_command() (rank 0 starts a command) until the command's
// statuses are gathered: an error escaping between leaves the other ranks
// waiting on a message, and finish() aborts them.
bool in_command();
void set_in_command();

// Parts as the commands carry them: [axis, first, count] each.
nlohmann::json parts_json(const std::vector<Part>& parts);

}  // namespace gpucmp::mpi
