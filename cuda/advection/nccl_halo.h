// The halo exchange of a CUDA part of advection's row split over two GPUs
//: ncclSend / ncclRecv of the rows next to the split, on a
// stream of its own (which also runs the step's edge rows), ordered against
// the compute stream by events; whatever the compute stream runs between
// start() and finish() overlaps the edge rows and the exchange. NCCL starts through the halo link
// (harness/halo_link.h: rank 0's unique id broadcast over MPI), one rank per GPU.
#pragma once
#include <cuda_runtime.h>

#include <memory>

#include "halo_link.h"
#include "workloads/advection/halo_split.h"

namespace gpucmp::cuda {

class NcclHalo {
 public:
  // Collective over the link's parts. Throws Unavailable in a build without NCCL.
  NcclHalo(const advection::HaloPart& part, int nx, HaloLink& link);
  ~NcclHalo();
  NcclHalo(const NcclHalo&) = delete;
  NcclHalo& operator=(const NcclHalo&) = delete;

  // The stream of the step's edge rows (StepPhase::edges): the exchange's
  // own, of the highest priority, after the work enqueued on `compute`.
  cudaStream_t edge_stream(cudaStream_t compute);
  // After the work enqueued on `compute` and on the edge stream: sends the part's edge rows of `f`
  // (which holds the grid's rows from part.resident.first on) and receives
  // its halo rows into `f`.
  void start(float* f, cudaStream_t compute);
  // The work enqueued on `compute` next waits for the exchange.
  void finish(cudaStream_t compute);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpucmp::cuda
