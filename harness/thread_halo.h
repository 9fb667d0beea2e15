// The halo link of a resident row whose parts all run in this process, one
// device worker thread each (halo_link.h): a hub that the parts meet at.
// exchange() copies each message straight from the sender's buffer into the
// receiver's, between two meetings of every part (so no buffer is read
// while its owner can change it); broadcast() and all_gather() go through
// the hub's scratch the same way. A part that fails calls abort(): every
// part waiting at the hub, or arriving later, then throws HaloAborted
// rather than waiting for it forever; a part whose messages have no
// partner (a bug) aborts it itself. A part waiting at a meeting spins
// first (the parts meet once a step, a few microseconds apart: a sleeping
// thread's wake-up would cost more than the step), then yields, then
// sleeps.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "halo_link.h"

namespace gpucmp {

struct HaloAborted : std::runtime_error {
  HaloAborted() : std::runtime_error("another part of the row failed during its halo exchange") {}
};

class ThreadHaloHub {
 public:
  explicit ThreadHaloHub(int parts);
  ~ThreadHaloHub();
  ThreadHaloHub(const ThreadHaloHub&) = delete;
  ThreadHaloHub& operator=(const ThreadHaloHub&) = delete;

  int parts() const { return parts_; }
  HaloLink& link(int part);  // part 0 .. parts() - 1
  // Every part waiting at the hub, now or later, throws HaloAborted.
  void abort();

  // The parts' side (ThreadHaloLink): each returns once every part called it.
  void exchange(int part, const std::vector<HaloMessage>& messages);
  void broadcast(int part, void* data, std::size_t bytes);
  void all_gather(int part, const void* mine, void* all, std::size_t bytes);
  void meet();

 private:
  // Each of `part`'s messages received from the peer's posted one.
  void copy_in(int part, const std::vector<HaloMessage>& messages);

  int parts_;
  std::mutex mutex_;  // posted_ and scratch_; the sleepers' side of a meeting
  std::condition_variable met_;
  std::atomic<int> arrived_{0};
  std::atomic<long long> generation_{0};  // meetings completed
  std::atomic<bool> aborted_{false};
  // Each part's messages during an exchange (copies: a part released by an
  // abort leaves its own vector while another may still read it).
  std::vector<std::vector<HaloMessage>> posted_;
  std::vector<unsigned char> scratch_;
  std::vector<std::unique_ptr<HaloLink>> links_;
};

}  // namespace gpucmp
