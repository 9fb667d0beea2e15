// set_args(kernel, "name", a, b, c): the kernel's arguments in order; a
// LocalBytes argument is a __local buffer of that many bytes, a ByValue one
// that many bytes passed by value (a struct whose size is known at run time).
//
// An OpenCL kernel keeps its arguments between launches, so set_args calls
// clSetKernelArg only for an argument whose bytes differ from what this
// kernel was last given at that index (the way an OpenCL program at its best
// launches an unchanged kernel again; kernel_args_mode "changed", the
// default). With the mode "every" (gpucmp-bench --cl-kernel-args every)
// every argument is set before every launch, as CUDA passes them: the
// cross-run that prices the setting. set_args_every_time always sets them
// (the ceiling's launch-args row, which prices the setting in every run).
// The record of a kernel's arguments is dropped when its Kernel handle
// releases it, and every record of a buffer when its Buffer handle releases
// that (release_kernel, release_buffer; handles.h): a kernel or buffer made
// later at the same address starts unknown.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "check.h"
#include "handles.h"

namespace gpucmp::opencl {

struct LocalBytes {
  std::size_t bytes;
};
struct ByValue {
  const void* data;
  std::size_t bytes;
};

enum class KernelArgsMode { changed, every };
void set_kernel_args_mode(KernelArgsMode mode);
KernelArgsMode kernel_args_mode();
const char* to_string(KernelArgsMode mode);
// clSetKernelArg calls set_args and set_args_every_time have made in this
// process, and the arguments of `k` on record (what the tests read).
std::uint64_t kernel_arg_sets();
std::size_t kernel_args_recorded(cl_kernel k);

namespace detail {
enum class ArgKind { value, local, buffer };
// clSetKernelArg(k, i, bytes, data) unless `always` is false, the mode is
// "changed" and k was last given these bytes at i (a __local one: data null,
// its size alone); throws ApiError naming kernel `name`, argument i and its
// kind.
void set_arg_bytes(cl_kernel k, cl_uint i, std::size_t bytes, const void* data, bool always,
                   const char* name, ArgKind kind);

inline void set_arg(cl_kernel k, cl_uint i, LocalBytes local, const char* name, bool always) {
  set_arg_bytes(k, i, local.bytes, nullptr, always, name, ArgKind::local);
}
inline void set_arg(cl_kernel k, cl_uint i, ByValue arg, const char* name, bool always) {
  set_arg_bytes(k, i, arg.bytes, arg.data, always, name, ArgKind::value);
}
inline void set_arg(cl_kernel k, cl_uint i, const Buffer& b, const char* name, bool always) {
  const cl_mem m = b.get();
  set_arg_bytes(k, i, sizeof(cl_mem), &m, always, name, ArgKind::buffer);
}
template <class T>
void set_arg(cl_kernel k, cl_uint i, const T& v, const char* name, bool always) {
  set_arg_bytes(k, i, sizeof(T), &v, always, name, ArgKind::value);
}
}  // namespace detail

template <class... Args>
void set_args(cl_kernel k, const char* name, const Args&... args) {
  cl_uint i = 0;
  (detail::set_arg(k, i++, args, name, false), ...);
}

template <class... Args>
void set_args_every_time(cl_kernel k, const char* name, const Args&... args) {
  cl_uint i = 0;
  (detail::set_arg(k, i++, args, name, true), ...);
}

}  // namespace gpucmp::opencl
