// Pinned host memory, NVIDIA's idiom for OpenCL: a CL_MEM_ALLOC_HOST_PTR
// buffer of the session's context mapped once for its host pointer, unmapped
// (and the session's queue finished) when released. Transfers between a
// device buffer and this pointer are DMA from page-locked memory, as CUDA's
// cudaHostAlloc'd buffers are.
#pragma once
#include <cstddef>
#include <string>

#include "check.h"
#include "handles.h"
#include "session.h"

namespace gpucmp::opencl {

class PinnedHost {
 public:
  PinnedHost(std::size_t bytes, const std::string& what)
      : buffer_(make_buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, what)) {
    cl_int err = CL_SUCCESS;
    ptr_ = clEnqueueMapBuffer(session().queue(), buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                              bytes, 0, nullptr, nullptr, &err);
    check(err, "clEnqueueMapBuffer", what + ", " + std::to_string(bytes) + " bytes");
  }
  PinnedHost(const PinnedHost&) = delete;
  PinnedHost& operator=(const PinnedHost&) = delete;
  ~PinnedHost() {
    clEnqueueUnmapMemObject(session().queue(), buffer_, ptr_, 0, nullptr, nullptr);
    clFinish(session().queue());
  }
  void* get() const { return ptr_; }

 private:
  Buffer buffer_;
  void* ptr_ = nullptr;
};

}  // namespace gpucmp::opencl
