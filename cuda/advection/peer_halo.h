// The halo exchange of a CUDA part whose neighbours run in this process on
// other GPUs (halo.h): peer access enabled both ways while it lives, the edge rows written
// straight into the neighbour's buffer of the same parity, with no host
// staging and no collective: by the edge launches' own stores (over:p2p,
// Mode::store: peer_stores() names the rows and the buffers), or copied by
// cudaMemcpyPeerAsync after them (over:p2p-copy, Mode::copy), on the
// exchange's stream either way. The two GPUs' streams are ordered by
// events, one per buffer parity, and the host threads meet once a step
// (halo_link.h, barrier), as in NVIDIA's multi_threaded_p2p:
//   begin(s)   store: the edge stream waits for each neighbour j to have
//              finished the step that last read the buffer this step
//              writes into (done_j);
//   start(s)   copy: the copy waits for done_j likewise; both record pushed_i
//              after the edge rows are in the neighbour's buffer;
//   finish(s)  records done_i once this part's step has read its input,
//              meets the other parts, and waits for each neighbour's pushed_j.
// The events of a parity are recorded again two steps later only, after a
// meeting, so no wait can find a record of the wrong step.
#pragma once
#include <vector>

#include "halo.h"
#include "handles.h"
#include "peer_access.h"

namespace gpucmp::cuda {

class PeerHalo final : public Halo {
 public:
  enum class Mode { store, copy };
  // Collective; throws Unavailable when the link's parts are not in this
  // process or a neighbour's GPU cannot access this one's memory.
  PeerHalo(const advection::HaloPart& part, int nx, HaloLink& link, Mode mode);

  void begin(float* f, cudaStream_t compute) override;
  PeerStores peer_stores(const float* f) const override;
  void start(float* f, cudaStream_t compute) override;
  void finish(float* f, cudaStream_t compute) override;
  void bind(float* f0, float* f1) override;
  bool graphable() const override { return false; }  // the host threads meet each step

  // What each part tells the others (all_gather).
  struct Shared {
    int device = -1;
    int resident_first = 0;
    float* f[2] = {nullptr, nullptr};
    cudaEvent_t pushed[2] = {nullptr, nullptr}, done[2] = {nullptr, nullptr};
  };

 private:
  int parity_of(const float* f) const;
  // The edge stream waits for each neighbour to have read its buffer q.
  void wait_neighbours_done(int q);

  advection::HaloPart part_;
  Mode mode_;
  int nx_;
  HaloLink& link_;
  std::vector<advection::HaloTrade> trades_;
  Event pushed_[2] = {make_order_event(), make_order_event()};
  Event done_[2] = {make_order_event(), make_order_event()};
  Shared mine_;
  std::vector<Shared> all_;         // by part
  std::vector<PeerAccess> access_;  // to each neighbour's memory, while this halo lives
};

}  // namespace gpucmp::cuda
