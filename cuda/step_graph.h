// A sequence of stream work captured once into a CUDA graph and replayed:
// one cudaGraphLaunch instead of every launch, event and library call of
// the sequence (the two-GPU advection step: two kernels, NCCL's send and
// receive, and the events that order its two streams). Streams the
// sequence forks through events join the capture, and must be joined back
// into the origin stream before it ends.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "handles.h"

namespace gpucmp::cuda {

using Graph = Unique<cudaGraph_t, cudaGraphDestroy>;
using GraphExec = Unique<cudaGraphExec_t, cudaGraphExecDestroy>;

class StepGraph {
 public:
  bool captured() const { return exec_.get() != nullptr; }
  // Captures what enqueue() puts on `stream` (and the streams it forks);
  // nothing runs. Relaxed mode: libraries called inside (NCCL) may make
  // calls that other modes refuse during a capture.
  template <class Enqueue>
  void capture(cudaStream_t stream, Enqueue enqueue, const std::string& what) {
    check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture",
          what);
    try {
      enqueue();
    } catch (...) {
      cudaGraph_t abandoned = nullptr;
      cudaStreamEndCapture(stream, &abandoned);
      if (abandoned) cudaGraphDestroy(abandoned);
      throw;
    }
    cudaGraph_t g = nullptr;
    check(cudaStreamEndCapture(stream, &g), "cudaStreamEndCapture", what);
    graph_ = Graph(g);
    cudaGraphExec_t e = nullptr;
    check(cudaGraphInstantiate(&e, graph_.get(), 0), "cudaGraphInstantiate", what);
    exec_ = GraphExec(e);
  }
  void launch(cudaStream_t stream, const std::string& what) const {
    check(cudaGraphLaunch(exec_.get(), stream), "cudaGraphLaunch", what);
  }
  void reset() {
    exec_.reset();
    graph_.reset();
  }

 private:
  Graph graph_;
  GraphExec exec_;
};

}  // namespace gpucmp::cuda
