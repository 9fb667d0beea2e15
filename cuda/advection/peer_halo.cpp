#include "peer_halo.h"

#include <stdexcept>
#include <string>

#include "check.h"
#include "errors.h"

namespace gpucmp::cuda {

PeerHalo::PeerHalo(const advection::HaloPart& part, int nx, HaloLink& link, Mode mode)
    : part_(part), mode_(mode), nx_(nx), link_(link), trades_(advection::halo_trades(part)) {
  if (!link.in_process())
    throw Unavailable(
        "peer-to-peer halos need every part in one process (over:p2p and over:p2p-copy run "
        "without mpirun)");
  check(cudaGetDevice(&mine_.device), "cudaGetDevice", "advection halo");
  mine_.resident_first = part.resident.first;
  mine_.open = open_.get();
  mine_.pushed = pushed_.get();
  all_.resize(std::size_t(link.parts()));
  link.all_gather(&mine_, all_.data(), sizeof(Shared));
  for (const advection::HaloTrade& t : trades_)
    access_.emplace_back(mine_.device, all_[std::size_t(t.peer)].device);
}

void PeerHalo::bind(float* f0, float* f1) {
  mine_.f[0] = f0;
  mine_.f[1] = f1;
  link_.all_gather(&mine_, all_.data(), sizeof(Shared));
}

int PeerHalo::parity_of(const float* f) const {
  if (f == mine_.f[0]) return 0;
  if (f == mine_.f[1]) return 1;
  throw std::logic_error("advection peer halo: a buffer it was not bound to");
}

void PeerHalo::wait_neighbours_open() {
  for (const advection::HaloTrade& t : trades_)
    check(cudaStreamWaitEvent(edge_stream(), all_[std::size_t(t.peer)].open, 0),
          "cudaStreamWaitEvent", "neighbour's last step done");
}

void PeerHalo::begin(float* f, cudaStream_t compute) {
  Halo::begin(f, compute);
  check(cudaEventRecord(open_.get(), compute), "cudaEventRecord", "halo open");
  link_.barrier();                                   // every part's open recorded
  if (mode_ == Mode::store) wait_neighbours_open();  // before an edge launch stores
}

PeerStores PeerHalo::peer_stores(const float* f) const {
  PeerStores out;
  if (mode_ != Mode::store) return out;
  const int q = parity_of(f);
  for (const advection::HaloTrade& t : trades_) {
    const Shared& peer = all_[std::size_t(t.peer)];
    (t.peer == part_.up ? out.up : out.down) = {peer.f[q], peer.resident_first, t.send.first,
                                                t.send.count};
  }
  return out;
}

void PeerHalo::start(float* f, cudaStream_t) {
  const int q = parity_of(f);
  if (mode_ == Mode::store) {  // the edge launches stored the rows there
    check(cudaEventRecord(pushed_.get(), edge_stream()), "cudaEventRecord", "halo pushed");
    return;
  }
  wait_neighbours_open();
  const std::size_t row_bytes = std::size_t(nx_) * sizeof(float);
  for (const advection::HaloTrade& t : trades_) {
    const Shared& peer = all_[std::size_t(t.peer)];
    char* dst = reinterpret_cast<char*>(peer.f[q]) +
                std::size_t(t.send.first - peer.resident_first) * row_bytes;
    const char* src = reinterpret_cast<const char*>(f) +
                      std::size_t(t.send.first - part_.resident.first) * row_bytes;
    check(cudaMemcpyPeerAsync(dst, peer.device, src, mine_.device,
                              std::size_t(t.send.count) * row_bytes, edge_stream()),
          "cudaMemcpyPeerAsync", "advection halo rows");
  }
  check(cudaEventRecord(pushed_.get(), edge_stream()), "cudaEventRecord", "halo pushed");
}

void PeerHalo::finish(float*, cudaStream_t compute) {
  check(cudaStreamWaitEvent(compute, pushed_.get(), 0), "cudaStreamWaitEvent", "edge rows");
  link_.barrier();  // every part's pushed recorded
  for (const advection::HaloTrade& t : trades_)
    check(cudaStreamWaitEvent(compute, all_[std::size_t(t.peer)].pushed, 0), "cudaStreamWaitEvent",
          "neighbour's rows pushed");
}

}  // namespace gpucmp::cuda
