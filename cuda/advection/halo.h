// The halo exchange of a CUDA part of advection's row split, whatever the
// transport (halo_split.h, Transport): the step's edge rows run on the
// exchange's own stream (of the highest priority), beside the interior on
// the compute stream; start() begins the exchange of the rows they wrote,
// finish() makes the compute stream's next work wait for the rows received.
//   mpi       NcclHalo (nccl_halo.h): ncclSend / ncclRecv, one rank per GPU
//   host      HostHalo (host_halo.h): copied to pinned host memory, traded
//             through the halo link, copied back
//   p2p       PeerHalo (peer_halo.h): the edge rows' kernels store them
//             into the neighbour's buffer too, ordered by the two GPUs' events
//   p2p-copy  PeerHalo: cudaMemcpyPeerAsync into the neighbour's buffer
#pragma once
#include <cuda_runtime.h>

#include <memory>

#include "advection_kernels.h"
#include "halo_link.h"
#include "handles.h"
#include "workloads/advection/halo_split.h"

namespace gpucmp::cuda {

class Halo {
 public:
  virtual ~Halo() = default;
  // Before the step whose output buffer is `f` (nothing enqueued for it
  // yet): the edge stream waits for the work enqueued on `compute` (the
  // last step's interior), once a step.
  virtual void begin(float* f, cudaStream_t compute) {
    (void)f;
    follow(compute);
  }
  // The rows the step's edge launches also store into the neighbours'
  // buffers (over:p2p); none elsewhere.
  virtual PeerStores peer_stores(const float* f) const {
    (void)f;
    return {};
  }
  // The stream of the step's edge rows (StepPhase::edges), of the highest
  // priority; the exchange runs on it after them.
  cudaStream_t edge_stream() const { return edge_.get(); }
  // After the edge rows enqueued on the edge stream: sends the
  // part's edge rows of `f` (the step's output buffer, which holds the
  // grid's rows from part.resident.first on) and receives its halo rows
  // into `f`.
  virtual void start(float* f, cudaStream_t compute) = 0;
  // The work enqueued on `compute` next waits for the rows received into `f`.
  virtual void finish(float* f, cudaStream_t compute) = 0;
  // The part's two buffers, after each upload made them (collective where
  // the transport needs the other parts' buffers).
  virtual void bind(float* f0, float* f1) {
    (void)f0;
    (void)f1;
  }
  // Whether a step may be captured into a CUDA graph (no host work in it).
  virtual bool graphable() const = 0;

 protected:
  // The edge stream waits for the work enqueued on `compute`.
  void follow(cudaStream_t compute);

 private:
  Stream edge_ = make_priority_stream();
  Event ready_ = make_order_event();
};

// The halo of `part` over `transport`, through `link` (collective).
std::unique_ptr<Halo> make_halo(advection::Transport transport, const advection::HaloPart& part,
                                int nx, HaloLink& link);

}  // namespace gpucmp::cuda
