// The halo exchange of a CUDA part staged through host memory (halo.h,
// over:host): the edge rows computed, then copied to pinned host buffers,
// on a stream of its own; the rows traded through the halo link (in one
// process, a memory copy between the parts' buffers); the neighbours' rows
// copied back on that stream, which the compute stream's next work waits
// for. The same path as OpenCL's (opencl/advection/staged_halo.h): the
// cross-run that prices CUDA's peer access.
#pragma once
#include <vector>

#include "halo.h"
#include "handles.h"

namespace gpucmp::cuda {

class HostHalo final : public Halo {
 public:
  HostHalo(const advection::HaloPart& part, int nx, HaloLink& link);

  void start(float* f, cudaStream_t compute) override;
  void finish(float* f, cudaStream_t compute) override;
  bool graphable() const override { return false; }  // the host trades the rows

 private:
  HaloLink& link_;
  std::vector<advection::StagedTrade> trades_;
  std::vector<PinnedPtr> send_, recv_;  // one per trade
  Event read_ = make_order_event(), written_ = make_order_event();
};

}  // namespace gpucmp::cuda
