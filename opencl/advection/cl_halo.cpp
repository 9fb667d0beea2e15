#include "cl_halo.h"

#include "check.h"
#include "context_halo.h"
#include "errors.h"
#include "session.h"
#include "staged_halo.h"

namespace gpucmp::opencl {

ClHalo::ClHalo() {
  cl_int err = CL_SUCCESS;
  // Profiled, as the runner's own queue: the edge rows' launches are timed events too.
  const cl_queue_properties profiled[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  transfer_ = Queue(
      clCreateCommandQueueWithProperties(session().context(), session().device(), profiled, &err));
  check(err, "clCreateCommandQueueWithProperties", "advection halo transfer queue");
}

void ClHalo::begin(cl_command_queue compute) {
  Event before;  // what `compute` has been given so far
  check(clEnqueueMarkerWithWaitList(compute, 0, nullptr, before.out()), "clEnqueueMarker",
        "advection halo");
  check(clFlush(compute), "clFlush", "advection compute queue");
  cl_event wait = before.get();
  check(clEnqueueBarrierWithWaitList(transfer_.get(), 1, &wait, nullptr),
        "clEnqueueBarrierWithWaitList", "advection edge rows");
}

std::unique_ptr<ClHalo> make_halo(advection::Transport over, const advection::HaloPart& part,
                                  int nx, HaloLink& link) {
  switch (over) {
    case advection::Transport::mpi:
    case advection::Transport::host:
      return std::make_unique<StagedHalo>(part, nx, link);
    case advection::Transport::context:
      return std::make_unique<ContextHalo>(part, nx, link);
    case advection::Transport::p2p:
    case advection::Transport::p2p_copy:
      break;
  }
  throw Unavailable(
      "OpenCL has no peer access: no kernel stores into another device's buffer and no call "
      "copies between two contexts' buffers, so its in-process halos are staged through the "
      "host (over:host) or copied between buffers of one context over both devices "
      "(over:context)");
}

}  // namespace gpucmp::opencl
