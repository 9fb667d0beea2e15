// MPI's start and end for the split rows, the gathering of every rank's
// device, and the serving loop of the ranks other than 0 (mpi_split.h).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "../errors.h"
#include "../mpi_split.h"
#include "commands.h"
#include "launcher.h"
#include "transport.h"

namespace gpucmp::mpi {

using nlohmann::json;

namespace {

struct Session {
  bool started = false;
  bool agreed = false;
  bool serving = false;  // agreed on 0: the other ranks serve until rank 0 stops them
  bool cuda_listed = false, cl_listed = false;  // --*-split-devices gave this rank's device
  int local_rank = 0;
};
Session& session() {
  static Session s;
  return s;
}

// Takes entry `rank` of a device list that must name one device per rank.
template <class T>
bool take_entry(std::vector<T>& list, int rank, int ranks, const std::string& option) {
  if (list.empty()) return false;
  if (int(list.size()) != ranks)
    throw UsageError(option + " names " + std::to_string(list.size()) + " device" +
                     (list.size() == 1 ? "" : "s") + " for " + std::to_string(ranks) +
                     " MPI ranks: with --split-over mpi it names one per rank");
  list = {list[std::size_t(rank)]};
  return true;
}

// Every rank's string, on every rank.
std::vector<std::string> all_gather(const std::string& mine) {
  const int n = world_size();
  int bytes = int(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(n)), offsets(static_cast<std::size_t>(n));
  MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < n; ++r) {
    offsets[r] = total;
    total += counts[r];
  }
  std::string all(std::size_t(total), '\0');
  MPI_Allgatherv(mine.data(), bytes, MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR,
                 MPI_COMM_WORLD);
  std::vector<std::string> out;
  out.reserve(std::size_t(n));
  for (int r = 0; r < n; ++r) out.push_back(all.substr(std::size_t(offsets[r]), counts[r]));
  return out;
}

json describe(const DeviceGroup& device) {
  const DeviceInfo& d = device.info(0);
  return {{"id", device.id(0)},      {"api", d.api},
          {"name", d.name},          {"vendor", d.vendor},
          {"pci", d.pci_bus_id},     {"compute_units", d.compute_units},
          {"lanes", d.lanes_per_cu}, {"clock_mhz", d.max_clock_mhz}};
}

DeviceInfo info_of(const json& j) {
  DeviceInfo d;
  d.api = j["api"];
  d.name = j["name"];
  d.vendor = j["vendor"];
  d.pci_bus_id = j["pci"];
  d.compute_units = j["compute_units"];
  d.lanes_per_cu = j["lanes"];
  d.max_clock_mhz = j["clock_mhz"];
  return d;
}

// Device `index` of `base`, alone: this rank's split device.
class OneDevice final : public DeviceGroup {
 public:
  OneDevice(const DeviceGroup& base, int index) : base_(base), index_(index) {}
  int size() const override { return 1; }
  const DeviceInfo& info(int) const override { return base_.info(index_); }
  std::string id(int) const override { return base_.id(index_); }
  void enter(int) const override { base_.enter(index_); }

 private:
  const DeviceGroup& base_;
  int index_;
};

}  // namespace

std::map<std::string, LocalDevice>& local_devices() {
  static std::map<std::string, LocalDevice> devices;
  return devices;
}

bool built() { return true; }

void start(SplitOptions& split) {
  Session& s = session();
  if (split.over != SplitOver::mpi) {
    check_not_launched_by_mpirun();
    return;
  }
  // A process not started by mpirun would be MPI's only rank: every split row
  // one device, labelled over:mpi.
  if (!launched_by_mpirun())
    throw UsageError(
        "--split-over mpi: not started by mpirun (run mpirun -np N gpucmp-bench ... "
        "--split-over mpi, one rank per device)");
  int provided = 0;
  // Serialized: the halo exchanges of the two-GPU rows (halo_link.h) call
  // MPI from a device worker thread while the main thread waits for it.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  s.started = true;
  if (provided < MPI_THREAD_SERIALIZED)
    throw ApiError("--split-over mpi: this MPI library gives thread level " +
                   std::to_string(provided) + ", below MPI_THREAD_SERIALIZED");
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &s.local_rank);
  MPI_Comm_free(&node);
  const int me = world_rank(), n = world_size();
  s.cuda_listed = take_entry(split.cuda_devices, me, n, "--cuda-split-devices");
  s.cl_listed = take_entry(split.cl_devices, me, n, "--cl-split-devices");
}

bool active() { return session().started; }

int rank() { return session().started ? world_rank() : launcher_rank(); }

Agreement checkpoint(const Agreement& mine) {
  if (!session().started) return mine;
  const std::vector<Status> all = gather_status({mine.code, mine.error});
  Agreement out;
  for (std::size_t r = 0; r < all.size(); ++r) {
    out.code = std::max(out.code, all[r].code);
    if (out.error.empty() && all[r].code != 0)
      out.error = r == 0 ? all[r].message : "rank " + std::to_string(r) + ": " + all[r].message;
  }
  return out;
}

void install_executors(const ApiSet& apis) {
  Session& s = session();
  if (!s.started) return;
  const int n = world_size();
  for (const auto& [name, api] : apis) {  // by name: the same order on every rank
    const DeviceGroup* group = api->split_group();
    json mine;
    if (group && group->size() > 0) {
      const bool listed = name == "cuda" ? s.cuda_listed : s.cl_listed;
      const int index = listed ? 0 : s.local_rank % group->size();
      LocalDevice& local = local_devices()[name];
      local.group = std::make_unique<OneDevice>(*group, index);
      mine = describe(*local.group);
    } else {
      mine = {{"unavailable",
               api->unavailable().empty() ? name + " has no split device" : api->unavailable()}};
    }
    std::vector<DeviceInfo> infos;
    std::vector<std::string> ids;
    std::string why;
    const std::vector<std::string> all = all_gather(mine.dump());
    for (int r = 0; r < n; ++r) {
      const json j = json::parse(all[std::size_t(r)]);
      if (j.contains("unavailable") && why.empty())
        why = "rank " + std::to_string(r) + ": " + j["unavailable"].get<std::string>();
      if (j.contains("unavailable")) continue;
      infos.push_back(info_of(j));
      ids.push_back(j["id"]);
    }
    if (!why.empty()) {
      local_devices().erase(name);
      set_mpi_split(n, name, nullptr, why);
      continue;
    }
    LocalDevice& local = local_devices()[name];
    local.workers = std::make_unique<DeviceWorkers>(*local.group);
    RanksGroup ranks(std::move(infos), std::move(ids));
    benchmark::AddCustomContext(name + ".split_ranks", describe_group(ranks));
    set_mpi_split(n, name, std::make_unique<RanksExecutor>(name, std::move(ranks)), "");
  }
}

int agree(int code) {
  Session& s = session();
  if (!s.started || s.agreed) return code;
  int all = 0;
  MPI_Allreduce(&code, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  s.agreed = true;
  s.serving = all == 0 && world_size() > 1;
  return all;
}

int serve() {
  for (;;) {
    json command;
    broadcast(command);
    if (command["op"] == "stop") return kExitOk;
    try {
      execute(command);
    } catch (const std::exception&) {  // rank 0 reports every rank's failure
    }
  }
}

void finish(int code) {
  Session& s = session();
  if (!s.started) return;
  agree(code);
  if (s.serving && world_rank() == 0) {
    if (in_command()) MPI_Abort(MPI_COMM_WORLD, code ? code : kExitFailed);
    json stop = {{"op", "stop"}};
    broadcast(stop);
  }
  local_devices().clear();  // the device threads end before MPI does
  MPI_Finalize();
  s.started = false;
}

}  // namespace gpucmp::mpi
