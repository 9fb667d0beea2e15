// The launcher of advection.cu for the C++ runner (a .cpp cannot include a .cu).
#pragma once
#include <cuda_runtime.h>

#include <string>

namespace gpucmp::cuda {

// One launch: rows [y_first, y_first + rows) of the nx x ny grid (whole
// tiles of the variant, advection::tile_rows) from `from` into `to`, both
// holding the grid's rows from row0 on (a part's resident rows; 0: all).
// Rows of a launch also stored straight into a neighbour GPU's buffer
// (over:p2p, peer access): the grid's rows [first, first + count), at row
// (y - row0) of `to`; count 0: none.
struct PeerRows {
  float* to = nullptr;
  int row0 = 0, first = 0, count = 0;
};
struct PeerStores {
  PeerRows up, down;
  bool any() const { return up.count > 0 || down.count > 0; }
};

struct StepLaunch {
  const float* from = nullptr;
  float* to = nullptr;
  int row0 = 0, y_first = 0, rows = 0;
  int nx = 0, ny = 0;
  float xc = 0, yc = 0, omega = 0;
  // Where any: the kernel instantiated to store those rows twice (the one-GPU
  // kernels' code is not touched: the stores are a template's branch).
  PeerStores peers;
};

// One step of `variant` ("blocked", "branchy", "plain", "weights", "stream",
// "async", "ring";
// harness/workloads/advection/advection.h) on `stream`.
void launch_advection_step(const std::string& variant, const StepLaunch& step, cudaStream_t stream);

// The async (async_copy) and ring variants' launch (advection_async.cu) on
// `blocks` of their tile; `carveout`: the kernel's preferred shared-memory
// carveout (cudaSharedmemCarveoutDefault, or a percentage).
void launch_advection_async(bool async_copy, int carveout, const StepLaunch& step, dim3 blocks,
                            cudaStream_t stream);

}  // namespace gpucmp::cuda
