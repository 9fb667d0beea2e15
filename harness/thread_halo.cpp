#include "thread_halo.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>

namespace gpucmp {

namespace {

class ThreadHaloLink final : public HaloLink {
 public:
  ThreadHaloLink(ThreadHaloHub& hub, int part) : hub_(hub), part_(part) {}
  int part() const override { return part_; }
  int parts() const override { return hub_.parts(); }
  bool in_process() const override { return true; }
  void exchange(const std::vector<HaloMessage>& messages) override {
    hub_.exchange(part_, messages);
  }
  void broadcast(void* data, std::size_t bytes) override { hub_.broadcast(part_, data, bytes); }
  void all_gather(const void* mine, void* all, std::size_t bytes) override {
    hub_.all_gather(part_, mine, all, bytes);
  }
  void barrier() override { hub_.meet(); }

 private:
  ThreadHaloHub& hub_;
  int part_;
};

thread_local HaloLink* t_link = nullptr;

}  // namespace

ThreadHaloHub::ThreadHaloHub(int parts) : parts_(parts), posted_(std::size_t(std::max(parts, 0))) {
  if (parts < 1) throw std::invalid_argument("a halo hub of " + std::to_string(parts) + " parts");
  for (int i = 0; i < parts; ++i) links_.push_back(std::make_unique<ThreadHaloLink>(*this, i));
}

ThreadHaloHub::~ThreadHaloHub() = default;

HaloLink& ThreadHaloHub::link(int part) { return *links_.at(std::size_t(part)); }

void ThreadHaloHub::abort() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    aborted_.store(true);
  }
  met_.notify_all();
}

void ThreadHaloHub::meet() {
  if (aborted_.load()) throw HaloAborted();
  // The generation cannot move before this part arrives.
  const long long mine = generation_.load();
  if (arrived_.fetch_add(1) + 1 == parts_) {
    arrived_.store(0);  // before the next meeting can start (it needs the new generation)
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      generation_.store(mine + 1);
    }
    met_.notify_all();
    return;
  }
  const auto met = [&] { return generation_.load() != mine; };
  constexpr int kSpins = 20000, kYields = 2000;
  for (int i = 0; i < kSpins + kYields && !aborted_.load(); ++i) {
    if (met()) return;
    if (i >= kSpins) std::this_thread::yield();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  met_.wait(lock, [&] { return met() || aborted_.load(); });
  if (!met()) throw HaloAborted();
}

void ThreadHaloHub::exchange(int part, const std::vector<HaloMessage>& messages) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    posted_[std::size_t(part)] = messages;
  }
  meet();  // every part's messages posted, none of their buffers changing
  try {
    copy_in(part, messages);
  } catch (...) {
    abort();  // the others would wait at the next meeting for this part forever
    throw;
  }
  meet();  // every copy done: the senders may change their buffers
}

void ThreadHaloHub::copy_in(int part, const std::vector<HaloMessage>& messages) {
  for (const HaloMessage& m : messages) {
    if (m.peer < 0 || m.peer >= parts_ || m.peer == part)
      throw std::invalid_argument("halo message of part " + std::to_string(part) + " to part " +
                                  std::to_string(m.peer));
    const HaloMessage* from = nullptr;
    for (const HaloMessage& theirs : posted_[std::size_t(m.peer)])
      if (theirs.peer == part) from = &theirs;
    if (!from || from->bytes != m.bytes)
      throw std::logic_error("part " + std::to_string(m.peer) + " sends part " +
                             std::to_string(part) + " no message of " + std::to_string(m.bytes) +
                             " bytes");
    std::memcpy(m.recv, from->send, m.bytes);
  }
}

void ThreadHaloHub::broadcast(int part, void* data, std::size_t bytes) {
  if (part == 0) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto* p = static_cast<const unsigned char*>(data);
    scratch_.assign(p, p + bytes);
  }
  meet();
  if (part != 0) std::memcpy(data, scratch_.data(), bytes);
  meet();
}

void ThreadHaloHub::all_gather(int part, const void* mine, void* all, std::size_t bytes) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (scratch_.size() != bytes * std::size_t(parts_)) scratch_.assign(bytes * parts_, 0);
  }
  meet();  // every part sized the scratch alike before any writes it
  std::memcpy(scratch_.data() + bytes * std::size_t(part), mine, bytes);
  meet();
  std::memcpy(all, scratch_.data(), bytes * std::size_t(parts_));
  meet();
}

ScopedHaloLink::ScopedHaloLink(HaloLink& link) : previous_(t_link) { t_link = &link; }
ScopedHaloLink::~ScopedHaloLink() { t_link = previous_; }

HaloLink& halo_link() { return t_link ? *t_link : mpi_halo_link(); }

}  // namespace gpucmp
