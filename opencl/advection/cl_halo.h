// The halo exchange of an OpenCL part of advection's row split over several
// GPUs, as its runner sees it: a transfer queue of the part's own runs the
// step's edge rows and then the exchange, beside the interior on the compute
// queue. How the rows travel is the transport's (halo_split.h):
//   staged_halo.h   over:mpi and over:host, through pinned host memory
//   context_halo.h  over:context, copied between buffers of one context
//                   over every part's device
#pragma once
#include <memory>

#include "halo_link.h"
#include "handles.h"
#include "workloads/advection/halo_split.h"

namespace gpucmp::opencl {

class ClHalo {
 public:
  ClHalo();  // the transfer queue, on the session's device
  virtual ~ClHalo() = default;
  ClHalo(const ClHalo&) = delete;
  ClHalo& operator=(const ClHalo&) = delete;

  // Before a step that exchanges: the transfer queue waits for the commands
  // enqueued on `compute` (the last step), once a step.
  void begin(cl_command_queue compute);
  // The queue of the step's edge rows (StepPhase::edges): the transfer queue.
  cl_command_queue edge_queue() const { return transfer_.get(); }
  // After the edge rows enqueued on the edge queue: sends the part's edge
  // rows of `f` (which holds the grid's rows from part.resident.first on).
  virtual void start(cl_mem f, cl_command_queue compute) = 0;
  // Receives the neighbours' rows into `f`; the commands enqueued on
  // `compute` next wait for them.
  virtual void finish(cl_mem f, cl_command_queue compute) = 0;

 protected:
  Queue transfer_;
};

// The halo of `over` (mpi, host, context) on the calling thread's session;
// Unavailable for the transports OpenCL has not (p2p, p2p-copy: no peer
// access).
std::unique_ptr<ClHalo> make_halo(advection::Transport over, const advection::HaloPart& part,
                                  int nx, HaloLink& link);

}  // namespace gpucmp::opencl
