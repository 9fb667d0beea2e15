// Where the parts of a split row run: on the
// devices of one process, one worker thread per device (ThreadSplitExecutor,
// the default), or on one device per MPI rank (harness/mpi_split.h,
// --split-over mpi). The split rows ask this for their device group, their
// job runner and the calibrated rule's probe, and never see which it is.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api.h"
#include "device_group.h"
#include "split_io.h"
#include "split_runner.h"

namespace gpucmp {

// One split row as every process sees it: how a device makes the runner of
// its part, and what a part reads and writes on the host.
struct SplitRow {
  std::string name;  // the benchmark's name: how the ranks of an MPI split find the row
  PartFactory make;  // called on the part's device (thread, rank)
  PartIo io;
};

class SplitExecutor {
 public:
  virtual ~SplitExecutor() = default;
  virtual const DeviceGroup& group() const = 0;
  // The row's job runner (split_runner.h): parts[i] on device i.
  virtual std::unique_ptr<Runner> runner(const SplitRow& row, const std::vector<Part>& parts,
                                         int launches) = 0;
  // The calibrated rule's probe of every device on its part (split_runner.h).
  virtual ProbeResult probe(const SplitRow& row, const std::vector<Part>& parts, int launches,
                            int probe_launches) = 0;
  // A resident split's runner (advection on two GPUs): each part
  // keeps its data on its device from upload() to download(), which gathers
  // the parts' outputs; one launch is one launch of every part at once, the
  // parts trading their halos themselves (halo_link.h). Timed by the host's
  // clock from a barrier before the batch to one after it.
  virtual std::unique_ptr<Runner> resident_runner(const SplitRow& row,
                                                  const std::vector<Part>& parts) = 0;
};

// The devices of `group` in this process, one worker thread each.
class ThreadSplitExecutor final : public SplitExecutor {
 public:
  explicit ThreadSplitExecutor(const DeviceGroup& group) : group_(group), workers_(group) {}
  const DeviceGroup& group() const override { return group_; }
  std::unique_ptr<Runner> runner(const SplitRow& row, const std::vector<Part>& parts,
                                 int launches) override {
    return std::make_unique<SplitRunner>(workers_, row.make, parts, launches);
  }
  ProbeResult probe(const SplitRow& row, const std::vector<Part>& parts, int launches,
                    int probe_launches) override {
    return probe_devices(workers_, row.make, parts, launches, probe_launches);
  }
  // The parts on this process's devices, their halos through an in-process
  // hub (resident_runner.h).
  std::unique_ptr<Runner> resident_runner(const SplitRow& row,
                                          const std::vector<Part>& parts) override;

 private:
  const DeviceGroup& group_;
  DeviceWorkers workers_;
};

// Every split row by name, made on demand (an MPI rank other than 0 makes
// the row rank 0 names; harness/mpi_split.h). register_split_rows fills it.
using SplitRowMaker = std::function<SplitRow()>;
void add_split_row(const std::string& name, SplitRowMaker make);
// Throws std::out_of_range for a name never added.
SplitRow make_split_row(const std::string& name);

// --split-over mpi: the executor of `api` over the ranks (null with the
// one-line reason the rows are skipped), and the number of ranks. Set once
// at startup by harness/mpi_split.cpp; unset, the split runs in-process.
void set_mpi_split(int ranks, const std::string& api, std::unique_ptr<SplitExecutor> executor,
                   const std::string& unavailable);
// Ranks of the MPI split; 0 when the split runs in-process.
int mpi_split_ranks();

// The executor of `api`'s split rows: over MPI ranks with --split-over mpi,
// else the API's split group's threads (made once per group). Throws
// Unavailable when the API has no devices, or in-process fewer than 2.
SplitExecutor& split_executor(const ApiSet& apis, const std::string& api);

}  // namespace gpucmp
