#include "kernel_args.h"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace gpucmp::opencl {

namespace {

// One argument as last set: its bytes (none for a __local one) and size.
struct ArgBytes {
  bool known = false;
  bool local = false;
  bool buffer = false;
  std::size_t size = 0;
  std::vector<unsigned char> bytes;

  bool same(std::size_t n, const void* data) const {
    if (!known || size != n || local != (data == nullptr)) return false;
    return local || std::memcmp(bytes.data(), data, n) == 0;
  }
};

std::atomic<KernelArgsMode>& mode_store() {
  static std::atomic<KernelArgsMode> mode{KernelArgsMode::changed};
  return mode;
}

struct Record {
  std::mutex mutex;
  std::map<cl_kernel, std::vector<ArgBytes>> kernels;
};
Record& record() {
  static Record r;
  return r;
}

std::atomic<std::uint64_t>& sets() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}

std::string describe(const char* name, cl_uint i, std::size_t bytes, detail::ArgKind kind) {
  const std::string index = std::to_string(i);
  switch (kind) {
    case detail::ArgKind::local:
      return std::string(name) + " __local argument " + index;
    case detail::ArgKind::buffer:
      return std::string(name) + " argument " + index;
    case detail::ArgKind::value:
      break;
  }
  return std::string(name) + " argument " + index + " by value, " + std::to_string(bytes) +
         " bytes";
}

}  // namespace

void set_kernel_args_mode(KernelArgsMode mode) { mode_store() = mode; }
KernelArgsMode kernel_args_mode() { return mode_store(); }
const char* to_string(KernelArgsMode mode) {
  return mode == KernelArgsMode::every ? "every" : "changed";
}
std::uint64_t kernel_arg_sets() { return sets(); }

std::size_t kernel_args_recorded(cl_kernel k) {
  Record& r = record();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.kernels.find(k);
  if (it == r.kernels.end()) return 0;
  std::size_t n = 0;
  for (const ArgBytes& a : it->second) n += a.known ? 1 : 0;
  return n;
}

cl_int release_kernel(cl_kernel k) {
  {
    Record& r = record();
    const std::lock_guard<std::mutex> lock(r.mutex);
    r.kernels.erase(k);
  }
  return clReleaseKernel(k);
}

cl_int release_buffer(cl_mem m) {
  {
    Record& r = record();
    const std::lock_guard<std::mutex> lock(r.mutex);
    for (auto& [kernel, args] : r.kernels)
      for (ArgBytes& a : args)
        if (a.buffer && a.same(sizeof(cl_mem), &m)) a = ArgBytes{};
  }
  return clReleaseMemObject(m);
}

namespace detail {

void set_arg_bytes(cl_kernel k, cl_uint i, std::size_t bytes, const void* data, bool always,
                   const char* name, ArgKind kind) {
  Record& r = record();
  {
    const std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<ArgBytes>& args = r.kernels[k];
    if (args.size() <= i) args.resize(i + 1);
    ArgBytes& last = args[i];
    if (!always && kernel_args_mode() == KernelArgsMode::changed && last.same(bytes, data)) return;
    last = ArgBytes{};  // unknown until the call below succeeds
  }
  ++sets();
  const cl_int err = clSetKernelArg(k, i, bytes, data);
  if (err != CL_SUCCESS) check(err, "clSetKernelArg", describe(name, i, bytes, kind));
  ArgBytes now;
  now.known = true;
  now.local = data == nullptr;
  now.buffer = kind == ArgKind::buffer;
  now.size = bytes;
  if (data) {
    const auto* first = static_cast<const unsigned char*>(data);
    now.bytes.assign(first, first + bytes);
  }
  const std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<ArgBytes>& args = r.kernels[k];
  if (args.size() <= i) args.resize(i + 1);
  args[i] = std::move(now);
}

}  // namespace detail

}  // namespace gpucmp::opencl
