// RAII for OpenCL objects: one owner, released exactly once.
#pragma once
#include <utility>

#include "cl.h"

namespace gpucmp::opencl {

template <class T, cl_int (*Release)(T)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T h) : h_(h) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  ~Handle() { reset(); }

  T get() const { return h_; }
  operator T() const { return h_; }  // NOLINT: pass straight to cl* calls
  T* out() {                         // for cl* calls that return the object through a pointer
    reset();
    return &h_;
  }
  void reset() {
    if (h_) Release(h_);
    h_ = nullptr;
  }

 private:
  T h_ = nullptr;
};

using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
// clReleaseMemObject, after dropping set_args' records of the buffer as a
// kernel's argument (kernel_args.h).
cl_int release_buffer(cl_mem m);
using Buffer = Handle<cl_mem, release_buffer>;
using Program = Handle<cl_program, clReleaseProgram>;
// clReleaseKernel, after dropping set_args' record of the kernel's arguments
// (kernel_args.h): a kernel made later at the same address starts unknown.
cl_int release_kernel(cl_kernel k);
using Kernel = Handle<cl_kernel, release_kernel>;
using Event = Handle<cl_event, clReleaseEvent>;

}  // namespace gpucmp::opencl
