// set_args(kernel, "name", a, b, c): clSetKernelArg for every argument in order;
// a LocalBytes argument is a __local buffer of that many bytes, a ByValue one
// that many bytes passed by value (a struct whose size is known at run time).
#pragma once
#include <cstddef>
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

namespace detail {
inline void set_arg(cl_kernel k, cl_uint i, LocalBytes local, const char* name) {
  check(clSetKernelArg(k, i, local.bytes, nullptr), "clSetKernelArg",
        std::string(name) + " __local argument " + std::to_string(i));
}
inline void set_arg(cl_kernel k, cl_uint i, ByValue arg, const char* name) {
  check(clSetKernelArg(k, i, arg.bytes, arg.data), "clSetKernelArg",
        std::string(name) + " argument " + std::to_string(i) + " by value, " +
            std::to_string(arg.bytes) + " bytes");
}
inline void set_arg(cl_kernel k, cl_uint i, const Buffer& b, const char* name) {
  const cl_mem m = b.get();
  check(clSetKernelArg(k, i, sizeof(cl_mem), &m), "clSetKernelArg",
        std::string(name) + " argument " + std::to_string(i));
}
template <class T>
void set_arg(cl_kernel k, cl_uint i, const T& v, const char* name) {
  check(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg",
        std::string(name) + " argument " + std::to_string(i));
}
}  // namespace detail

template <class... Args>
void set_args(cl_kernel k, const char* name, const Args&... args) {
  cl_uint i = 0;
  (detail::set_arg(k, i++, args, name), ...);
}

}  // namespace gpucmp::opencl
