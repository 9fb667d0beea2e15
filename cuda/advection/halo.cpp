#include "halo.h"

#include "check.h"
#include "errors.h"
#include "host_halo.h"
#include "nccl_halo.h"
#include "peer_halo.h"

namespace gpucmp::cuda {

void Halo::follow(cudaStream_t compute) {
  check(cudaEventRecord(ready_.get(), compute), "cudaEventRecord", "halo ready");
  check(cudaStreamWaitEvent(edge_.get(), ready_.get(), 0), "cudaStreamWaitEvent", "halo");
}

std::unique_ptr<Halo> make_halo(advection::Transport transport, const advection::HaloPart& part,
                                int nx, HaloLink& link) {
  switch (transport) {
    case advection::Transport::host:
      return std::make_unique<HostHalo>(part, nx, link);
    case advection::Transport::p2p:
      return std::make_unique<PeerHalo>(part, nx, link, PeerHalo::Mode::store);
    case advection::Transport::p2p_copy:
      return std::make_unique<PeerHalo>(part, nx, link, PeerHalo::Mode::copy);
    case advection::Transport::context:
      throw Unavailable(
          "over:context is OpenCL's one context over several devices; a CUDA context is per "
          "device, and CUDA's in-process halos go by peer access (over:p2p, over:p2p-copy)");
    case advection::Transport::mpi:
      break;
  }
  return std::make_unique<NcclHalo>(part, nx, link);
}

}  // namespace gpucmp::cuda
