// How the parts of a resident row split (advection over two GPUs) trade
// their halo rows when the halos pass through the host, and how they agree
// on anything else (NCCL's id, peer pointers): one part per MPI rank, part i
// on rank i, the messages through MPI (OpenMPI, harness/mpi/halo_peers.cpp),
// so that the same code crosses nodes; or every part in this process, one
// device worker thread each, through memory (thread_halo.h). Called from a
// device worker thread (MPI: while the main thread waits,
// MPI_THREAD_SERIALIZED).
#pragma once
#include <cstddef>
#include <vector>

namespace gpucmp {

// `bytes` sent from `send` to part `peer`, and as many received from it into `recv`.
struct HaloMessage {
  int peer = -1;
  const void* send = nullptr;
  void* recv = nullptr;
  std::size_t bytes = 0;
};

class HaloLink {
 public:
  virtual ~HaloLink() = default;
  virtual int part() const = 0;   // this process's part
  virtual int parts() const = 0;  // parts in all
  // Whether every part runs in this process (its pointers mean something to
  // the others: CUDA peer access).
  virtual bool in_process() const = 0;
  // Every message's send and receive, all at once; returns when all are done.
  virtual void exchange(const std::vector<HaloMessage>& messages) = 0;
  // Part 0's `bytes` bytes at `data`, on every part (collective).
  virtual void broadcast(void* data, std::size_t bytes) = 0;
  // Every part's `bytes` bytes at `mine`, in part order, into `all` (parts()
  // x bytes; collective).
  virtual void all_gather(const void* mine, void* all, std::size_t bytes) = 0;
  // Returns once every part has called it (collective).
  virtual void barrier() = 0;
};

// The calling thread's link: the one a ScopedHaloLink set on this thread
// (a resident row of this process), else over MPI with --split-over mpi.
// Throws Unavailable when neither (the two-GPU rows need one or the other).
HaloLink& halo_link();

// The link over MPI (halo_peers.cpp; a build without MPI throws Unavailable).
HaloLink& mpi_halo_link();

// While it lives, halo_link() on this thread is `link`.
class ScopedHaloLink {
 public:
  explicit ScopedHaloLink(HaloLink& link);
  ~ScopedHaloLink();
  ScopedHaloLink(const ScopedHaloLink&) = delete;
  ScopedHaloLink& operator=(const ScopedHaloLink&) = delete;

 private:
  HaloLink* previous_;
};

}  // namespace gpucmp
