// The halo exchange of a CUDA part of advection's row split over MPI ranks
// (halo.h, over:mpi): ncclSend / ncclRecv of the rows next to the split,
// on a stream of its own (which also runs the step's edge rows), ordered
// against the compute stream by events; whatever the compute stream runs
// between start() and finish() overlaps the edge rows and the exchange.
// NCCL starts through the halo link (harness/halo_link.h: rank 0's unique id
// broadcast), one rank per GPU.
#pragma once
#include <cuda_runtime.h>

#include <memory>

#include "halo.h"

namespace gpucmp::cuda {

class NcclHalo final : public Halo {
 public:
  // Collective over the link's parts. Throws Unavailable in a build without NCCL.
  NcclHalo(const advection::HaloPart& part, int nx, HaloLink& link);
  ~NcclHalo() override;
  NcclHalo(const NcclHalo&) = delete;
  NcclHalo& operator=(const NcclHalo&) = delete;

  void start(float* f, cudaStream_t compute) override;
  void finish(float* f, cudaStream_t compute) override;
  bool graphable() const override { return true; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpucmp::cuda
