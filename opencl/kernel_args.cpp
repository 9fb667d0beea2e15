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
  bool local = false;
  std::vector<unsigned char> bytes;
  std::size_t size = 0;
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

}  // namespace

void set_kernel_args_mode(KernelArgsMode mode) { mode_store() = mode; }
KernelArgsMode kernel_args_mode() { return mode_store(); }
const char* to_string(KernelArgsMode mode) {
  return mode == KernelArgsMode::every ? "every" : "changed";
}
std::uint64_t kernel_arg_sets() { return sets(); }

cl_int release_kernel(cl_kernel k) {
  {
    Record& r = record();
    const std::lock_guard<std::mutex> lock(r.mutex);
    r.kernels.erase(k);
  }
  return clReleaseKernel(k);
}

namespace detail {

void set_arg_bytes(cl_kernel k, cl_uint i, std::size_t bytes, const void* data, bool always,
                   const std::string& what) {
  ArgBytes now;
  now.local = data == nullptr;
  now.size = bytes;
  if (data) {
    const auto* first = static_cast<const unsigned char*>(data);
    now.bytes.assign(first, first + bytes);
  }
  Record& r = record();
  {
    const std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<ArgBytes>& args = r.kernels[k];
    if (args.size() <= i) args.resize(i + 1);
    ArgBytes& last = args[i];
    const bool same = last.size == now.size && last.local == now.local && last.bytes == now.bytes &&
                      (last.size > 0 || last.local);
    if (same && !always && kernel_args_mode() == KernelArgsMode::changed) return;
    last = ArgBytes{};  // unknown until the call below succeeds
  }
  ++sets();
  check(clSetKernelArg(k, i, bytes, data), "clSetKernelArg", what);
  const std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<ArgBytes>& args = r.kernels[k];
  if (args.size() <= i) args.resize(i + 1);
  args[i] = std::move(now);
}

}  // namespace detail

}  // namespace gpucmp::opencl
