// RAII for CUDA resources: device and pinned host memory, streams, events.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "check.h"

namespace gpucmp::cuda {

// One owner of a pointer or handle, released with Free exactly once.
template <class T, cudaError_t (*Free)(T)>
class Unique {
 public:
  Unique() = default;
  explicit Unique(T h) : h_(h) {}
  Unique(const Unique&) = delete;
  Unique& operator=(const Unique&) = delete;
  Unique(Unique&& o) noexcept : h_(std::exchange(o.h_, T{})) {}
  Unique& operator=(Unique&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, T{});
    }
    return *this;
  }
  ~Unique() { reset(); }
  T get() const { return h_; }
  void reset() {
    if (h_) Free(h_);
    h_ = T{};
  }

 private:
  T h_{};
};

using DevicePtr = Unique<void*, cudaFree>;
using PinnedPtr = Unique<void*, cudaFreeHost>;
using Stream = Unique<cudaStream_t, cudaStreamDestroy>;
using Event = Unique<cudaEvent_t, cudaEventDestroy>;

inline DevicePtr device_alloc(std::size_t bytes, const std::string& what) {
  void* p = nullptr;
  check(cudaMalloc(&p, bytes), "cudaMalloc", what + ", " + std::to_string(bytes) + " bytes");
  return DevicePtr(p);
}

inline PinnedPtr pinned_alloc(std::size_t bytes, const std::string& what) {
  void* p = nullptr;
  check(cudaHostAlloc(&p, bytes, cudaHostAllocDefault), "cudaHostAlloc",
        what + ", " + std::to_string(bytes) + " bytes");
  return PinnedPtr(p);
}

inline Stream make_stream() {
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate", "runner");
  return Stream(s);
}

// A non-blocking stream of the device's highest priority: its blocks are
// scheduled before those of default-priority streams waiting beside them.
inline Stream make_priority_stream() {
  int least = 0, greatest = 0;
  check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange",
        "runner");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest),
        "cudaStreamCreateWithPriority", "runner");
  return Stream(s);
}

inline Event make_event() {
  cudaEvent_t e = nullptr;
  check(cudaEventCreate(&e), "cudaEventCreate", "timing");
  return Event(e);
}

// An event that only orders streams (no timestamp: cheaper to record).
inline Event make_order_event() {
  cudaEvent_t e = nullptr;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags",
        "stream order");
  return Event(e);
}

// Copies on the runner's `stream` and waits for it. Uploads and downloads go
// through the runner's own (non-blocking) stream: a plain cudaMemcpy runs on
// the legacy stream, which a non-blocking stream does not wait for, and its
// pageable H2D path may return before the DMA has landed.
inline void copy_and_wait(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                          cudaStream_t stream, const std::string& what) {
  check(cudaMemcpyAsync(dst, src, bytes, kind, stream), "cudaMemcpyAsync", what);
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", what);
}

}  // namespace gpucmp::cuda
