#include "context_halo.h"

#include "check.h"
#include "errors.h"
#include "session.h"

namespace gpucmp::opencl {

ContextHalo::ContextHalo(const advection::HaloPart& part, int nx, HaloLink& link)
    : link_(link), trades_(advection::staged_trades(part, nx)) {
  if (!link.in_process())
    throw Unavailable("over:context needs every part in this process (one context)");
  Outboxes mine;
  mine.context = session().context();
  for (const advection::StagedTrade& t : trades_) {
    const int toward = t.peer == part.up ? 0 : 1;
    toward_.push_back(toward);
    for (int parity = 0; parity < 2; ++parity) {
      out_[toward][parity] =
          make_buffer(CL_MEM_READ_WRITE, t.bytes, "advection halo outbox, shared context");
      mine.out[toward][parity] = out_[toward][parity].get();
    }
  }
  std::vector<Outboxes> all(std::size_t(link.parts()));
  link.all_gather(&mine, all.data(), sizeof mine);
  for (std::size_t i = 0; i < trades_.size(); ++i) {
    const Outboxes& peer = all.at(std::size_t(trades_[i].peer));
    if (peer.context != mine.context)
      throw Unavailable("over:context: part " + std::to_string(trades_[i].peer) +
                        " is not in this part's context");
    // The peer's outbox toward this part: its lower one where it is above.
    const int theirs = 1 - toward_[i];
    from_.push_back({peer.out[theirs][0], peer.out[theirs][1]});
    peer_pulled_.push_back(nullptr);
  }
}

void ContextHalo::start(cl_mem f, cl_command_queue) {
  const int parity = int(exchanges_ % 2);
  for (std::size_t i = 0; i < trades_.size(); ++i) {
    const cl_uint waits = peer_pulled_[i] ? 1 : 0;
    check(clEnqueueCopyBuffer(transfer_.get(), f, out_[toward_[i]][parity].get(),
                              trades_[i].send_offset, 0, trades_[i].bytes, waits,
                              waits ? &peer_pulled_[i] : nullptr, nullptr),
          "clEnqueueCopyBuffer", "advection halo rows into the outbox");
  }
  check(clEnqueueMarkerWithWaitList(transfer_.get(), 0, nullptr, sent_[parity].out()),
        "clEnqueueMarkerWithWaitList", "advection halo rows sent");
  check(clFlush(transfer_.get()), "clFlush", "advection halo outbox copies");
}

void ContextHalo::finish(cl_mem f, cl_command_queue compute) {
  check(clFlush(compute), "clFlush", "advection compute queue");  // the interior runs meanwhile
  const int parity = int(exchanges_ % 2);
  const Marks mine{sent_[parity].get(), pulled_[1 - parity].get()};
  std::vector<Marks> all(std::size_t(link_.parts()));
  link_.all_gather(&mine, all.data(), sizeof mine);
  for (std::size_t i = 0; i < trades_.size(); ++i) {
    const Marks& peer = all.at(std::size_t(trades_[i].peer));
    // That pull read the outbox the next exchange writes (the other parity).
    peer_pulled_[i] = peer.pulled;
    check(clEnqueueCopyBuffer(transfer_.get(), from_[i][std::size_t(parity)], f, 0,
                              trades_[i].recv_offset, trades_[i].bytes, 1, &peer.sent, nullptr),
          "clEnqueueCopyBuffer", "advection halo rows from the neighbour's outbox");
  }
  check(clEnqueueMarkerWithWaitList(transfer_.get(), 0, nullptr, pulled_[parity].out()),
        "clEnqueueMarkerWithWaitList", "advection halo rows received");
  check(clFlush(transfer_.get()), "clFlush", "advection halo pulls");
  cl_event received = pulled_[parity].get();
  check(clEnqueueBarrierWithWaitList(compute, 1, &received, nullptr),
        "clEnqueueBarrierWithWaitList", "advection halo rows received");
  ++exchanges_;
}

}  // namespace gpucmp::opencl
