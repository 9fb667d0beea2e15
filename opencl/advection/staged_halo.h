// The halo exchange of an OpenCL part of advection's row split over
// several GPUs, over:mpi and over:host alike: the step's edge rows computed, and
// then read to the host, on a transfer queue of its own, traded with the
// neighbour through the halo link (harness/halo_link.h: MPI, or in one
// process the hub's memory copy), and the neighbour's rows written back on
// the transfer queue; the compute queue's next commands wait for the
// writes. The rows stage in pinned host memory (pinned_host.h). Whatever the compute queue runs
// between start() and finish() overlaps the reads and the host's exchange.
#pragma once
#include <memory>
#include <vector>

#include "cl_halo.h"
#include "halo_link.h"
#include "handles.h"
#include "pinned_host.h"
#include "workloads/advection/halo_split.h"

namespace gpucmp::opencl {

class StagedHalo final : public ClHalo {
 public:
  // On the session's device (session.h).
  StagedHalo(const advection::HaloPart& part, int nx, HaloLink& link);

  // Reads the part's edge rows of `f` into pinned host memory.
  void start(cl_mem f, cl_command_queue compute) override;
  // Waits for the reads, trades the rows, writes the neighbours' rows into
  // `f`; the commands enqueued on `compute` next wait for the writes.
  void finish(cl_mem f, cl_command_queue compute) override;

 private:
  HaloLink& link_;
  std::vector<advection::StagedTrade> trades_;
  std::vector<std::unique_ptr<PinnedHost>> send_, recv_;  // one per trade, page-locked
  std::vector<Event> reads_, writes_;
};

}  // namespace gpucmp::opencl
