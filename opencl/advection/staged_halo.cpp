#include "staged_halo.h"

#include "check.h"
#include "session.h"

namespace gpucmp::opencl {

StagedHalo::StagedHalo(const advection::HaloPart& part, int nx, HaloLink& link)
    : link_(link), trades_(advection::staged_trades(part, nx)) {
  for (const advection::StagedTrade& t : trades_) {
    send_.push_back(std::make_unique<PinnedHost>(t.bytes, "advection halo rows sent"));
    recv_.push_back(std::make_unique<PinnedHost>(t.bytes, "advection halo rows received"));
  }
  reads_.resize(trades_.size());
  writes_.resize(trades_.size());
}

void StagedHalo::start(cl_mem f, cl_command_queue) {
  for (std::size_t i = 0; i < trades_.size(); ++i) {
    reads_[i] = Event();
    check(clEnqueueReadBuffer(transfer_.get(), f, CL_FALSE, trades_[i].send_offset,
                              trades_[i].bytes, send_[i]->get(), 0, nullptr, reads_[i].out()),
          "clEnqueueReadBuffer", "advection halo rows");
  }
  check(clFlush(transfer_.get()), "clFlush", "advection halo reads");
}

void StagedHalo::finish(cl_mem f, cl_command_queue compute) {
  check(clFlush(compute), "clFlush", "advection compute queue");  // the interior runs meanwhile
  std::vector<cl_event> events;
  for (const Event& e : reads_) events.push_back(e.get());
  if (!events.empty())
    check(clWaitForEvents(cl_uint(events.size()), events.data()), "clWaitForEvents",
          "advection halo reads");
  std::vector<HaloMessage> messages;
  for (std::size_t i = 0; i < trades_.size(); ++i)
    messages.push_back(trades_[i].message(send_[i]->get(), recv_[i]->get()));
  link_.exchange(messages);
  events.clear();
  for (std::size_t i = 0; i < trades_.size(); ++i) {
    writes_[i] = Event();
    check(clEnqueueWriteBuffer(transfer_.get(), f, CL_FALSE, trades_[i].recv_offset,
                               trades_[i].bytes, recv_[i]->get(), 0, nullptr, writes_[i].out()),
          "clEnqueueWriteBuffer", "advection halo rows");
    events.push_back(writes_[i].get());
  }
  check(clFlush(transfer_.get()), "clFlush", "advection halo writes");
  if (!events.empty())
    check(clEnqueueBarrierWithWaitList(compute, cl_uint(events.size()), events.data(), nullptr),
          "clEnqueueBarrierWithWaitList", "advection halo writes");
}

}  // namespace gpucmp::opencl
