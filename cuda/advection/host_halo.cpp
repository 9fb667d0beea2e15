#include "host_halo.h"

#include "check.h"

namespace gpucmp::cuda {

namespace {
char* bytes_of(float* f) { return reinterpret_cast<char*>(f); }
}  // namespace

HostHalo::HostHalo(const advection::HaloPart& part, int nx, HaloLink& link)
    : link_(link), trades_(advection::staged_trades(part, nx)) {
  for (const advection::StagedTrade& t : trades_) {
    send_.push_back(pinned_alloc(t.bytes, "advection halo rows sent"));
    recv_.push_back(pinned_alloc(t.bytes, "advection halo rows received"));
  }
}

void HostHalo::start(float* f, cudaStream_t) {
  for (std::size_t i = 0; i < trades_.size(); ++i)
    check(cudaMemcpyAsync(send_[i].get(), bytes_of(f) + trades_[i].send_offset, trades_[i].bytes,
                          cudaMemcpyDeviceToHost, edge_stream()),
          "cudaMemcpyAsync", "advection halo rows to the host");
  check(cudaEventRecord(read_.get(), edge_stream()), "cudaEventRecord", "halo read");
}

void HostHalo::finish(float* f, cudaStream_t compute) {
  check(cudaEventSynchronize(read_.get()), "cudaEventSynchronize", "halo read");
  std::vector<HaloMessage> messages;
  for (std::size_t i = 0; i < trades_.size(); ++i)
    messages.push_back(trades_[i].message(send_[i].get(), recv_[i].get()));
  link_.exchange(messages);
  for (std::size_t i = 0; i < trades_.size(); ++i)
    check(cudaMemcpyAsync(bytes_of(f) + trades_[i].recv_offset, recv_[i].get(), trades_[i].bytes,
                          cudaMemcpyHostToDevice, edge_stream()),
          "cudaMemcpyAsync", "advection halo rows from the host");
  check(cudaEventRecord(written_.get(), edge_stream()), "cudaEventRecord", "halo written");
  check(cudaStreamWaitEvent(compute, written_.get(), 0), "cudaStreamWaitEvent", "halo written");
}

}  // namespace gpucmp::cuda
