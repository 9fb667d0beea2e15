// The halo exchange of an OpenCL part whose neighbours run in this process
// on other devices of one context (over:context; split_group.h makes the
// context over the split group's devices): the nearest OpenCL comes to
// CUDA's peer copies. No OpenCL kernel can store into another device's
// buffer, but a command on one device's queue can copy between any two
// buffers of its context and wait for another device's events. Each part
// copies its edge rows into a small outbox of its own on its device, and
// each neighbour copies that outbox into its halo rows on its own queue:
// only the outboxes (2K rows) ever cross devices, never the field, however
// the driver moves them (through the host or not: the driver's business).
//
// One meeting of the parts' threads an exchange, in finish() (all_gather of
// the events just made), as in NVIDIA's multi_threaded_p2p:
//   start   on the transfer queue, after the edge rows: the copy of the sent
//           rows into outbox[parity] (waiting for each neighbour's pull of
//           that outbox two exchanges ago), then the marker `sent`;
//   finish  meets the others (each part's `sent` of this exchange and
//           `pulled` of the last); then on the transfer queue the copy of
//           each neighbour's outbox[parity] into the halo rows, waiting for
//           its `sent`; the marker `pulled`; the compute queue waits for it.
// Every event is kept two exchanges, by parity, so none is released before
// the others have enqueued their waits on it.
#pragma once
#include <array>
#include <vector>

#include "cl_halo.h"

namespace gpucmp::opencl {

class ContextHalo final : public ClHalo {
 public:
  // Collective; on a session in the split group's shared context
  // (Session::in_shared_context); Unavailable where the parts are not all in
  // this process or not in one context.
  ContextHalo(const advection::HaloPart& part, int nx, HaloLink& link);

  void start(cl_mem f, cl_command_queue compute) override;
  void finish(cl_mem f, cl_command_queue compute) override;

  // What each part tells the others once (all_gather): its context and its
  // outboxes toward the part above (0) and below (1), by parity.
  struct Outboxes {
    cl_context context = nullptr;
    cl_mem out[2][2] = {{nullptr, nullptr}, {nullptr, nullptr}};
  };
  // ... and every exchange.
  struct Marks {
    cl_event sent = nullptr, pulled = nullptr;
  };

 private:
  HaloLink& link_;
  std::vector<advection::StagedTrade> trades_;
  std::vector<int> toward_;                  // each trade's outbox: 0 up, 1 down
  std::vector<std::array<cl_mem, 2>> from_;  // each trade's peer's outbox toward this part
  std::vector<cl_event> peer_pulled_;        // each trade's peer's last pull (or null)
  Buffer out_[2][2];                         // [toward][parity]
  Event sent_[2], pulled_[2];                // by the exchange's parity
  long long exchanges_ = 0;
};

}  // namespace gpucmp::opencl
