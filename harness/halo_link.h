// How the parts of a resident row split (advection over two GPUs)
// trade their halo rows when the halos pass through the host: one
// part per MPI rank, part i on rank i, the messages through MPI (OpenMPI,
// harness/mpi/halo_peers.cpp), so that the same code crosses nodes. The
// CUDA runners use it only to start NCCL (broadcast of its unique id); the
// OpenCL runners stage their halos through it. Called from a device worker
// thread while the main thread waits (MPI_THREAD_SERIALIZED).
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
  // Every message's send and receive, all at once; returns when all are done.
  virtual void exchange(const std::vector<HaloMessage>& messages) = 0;
  // Part 0's `bytes` bytes at `data`, on every part (collective).
  virtual void broadcast(void* data, std::size_t bytes) = 0;
};

// This process's link: over MPI with --split-over mpi. Throws Unavailable
// when MPI was not started (the two-GPU rows run one MPI rank per GPU).
HaloLink& halo_link();

}  // namespace gpucmp
