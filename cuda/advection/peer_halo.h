// The halo exchange of a CUDA part whose neighbours run in this process on
// other GPUs (halo.h): peer access enabled both ways while it lives, the
// edge rows written straight into the neighbour's buffer of the same
// parity, with no host staging and no collective: by the edge launches' own
// stores (over:p2p, Mode::store: peer_stores() names the rows and the
// buffers), or copied by cudaMemcpyPeerAsync after them (over:p2p-copy,
// Mode::copy), on the exchange's stream either way. On a step that
// exchanges (every one, or every K with --advection-halo-steps K), the
// GPUs' streams are ordered by two events a part and the host threads meet
// twice, as in NVIDIA's multi_threaded_p2p:
//   begin   records open_i on the compute stream (every earlier step of
//           this part done: nothing reads or writes the rows its
//           neighbours are about to write), meets the other parts; store:
//           the edge stream waits for each neighbour's open_j;
//   start   copy: the copy waits for open_j likewise; both record pushed_i
//           on the edge stream once the edge rows are in the neighbours'
//           buffers;
//   finish  the compute stream waits for pushed_i, the parts meet, and it
//           waits for each neighbour's pushed_j.
// An event is recorded again only after the meeting that follows every
// wait on its last record, so no wait can find a record of another step.
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
    cudaEvent_t open = nullptr, pushed = nullptr;
  };

 private:
  int parity_of(const float* f) const;
  // The edge stream waits for each neighbour's steps before this one.
  void wait_neighbours_open();

  advection::HaloPart part_;
  Mode mode_;
  int nx_;
  HaloLink& link_;
  std::vector<advection::HaloTrade> trades_;
  Event open_ = make_order_event(), pushed_ = make_order_event();
  Shared mine_;
  std::vector<Shared> all_;         // by part
  std::vector<PeerAccess> access_;  // to each neighbour's memory, while this halo lives
};

}  // namespace gpucmp::cuda
