// Chunks of records passed to a kernel by value (cp's atoms, MRI's k-values):
// one kernel argument, a struct holding an array of records, which NVIDIA puts
// in the parameters' constant bank on both APIs (OpenCL: a plain struct
// argument; CUDA: a __grid_constant__ parameter), where each JIT reads it in
// place with per-thread (LDC c[0x0][R]) or uniform (ULDC c[0x0][UR]) loads,
// its own choice (docs/studies/parboil.md). How many records one launch
// takes follows from the bytes a device lets a kernel's arguments take in all
// (OpenCL's CL_DEVICE_MAX_PARAMETER_SIZE), beside the kernel's other
// arguments. One function for every workload, so that OpenCL's count (from
// the device) and CUDA's (compiled in, from kCudaParameterBytes) come from
// the same rule.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <string>

#include "device_info.h"

namespace gpucmp::byvalue {

// The bytes CUDA lets a kernel's parameters take (32764 since CUDA 12.1, on
// Volta and later): the limit CUDA's by-value kernels, whose chunk is an array
// size compiled in, are sized from. Every workload's chunk reaches its own cap
// (its constant tile) from it, and so from NVIDIA's OpenCL limit on the H200
// (recorded per run as opencl.max_parameter_bytes): both APIs launch alike.
constexpr long long kCudaParameterBytes = 32764;

// The largest n <= max_records with other_bytes + record_bytes * n <=
// parameter_bytes; 0 when not one record fits.
constexpr int records_fitting(long long parameter_bytes, long long other_bytes,
                              long long record_bytes, int max_records) {
  if (record_bytes <= 0 || parameter_bytes <= other_bytes) return 0;
  const long long fit = (parameter_bytes - other_bytes) / record_bytes;
  return fit < max_records ? int(fit) : max_records;
}

// The largest power of two <= n; 0 for n < 1.
constexpr int power_of_two_floor(int n) {
  if (n < 1) return 0;
  int p = 1;
  while (p <= n / 2) p *= 2;
  return p;
}

// What one workload's by-value kernel passes: `what` names it in errors
// ("cp by value"), `record` its records ("atom"); other_bytes are the
// kernel's other arguments (pointers counted as 8 bytes), record_bytes one
// record's size, max_records the most one launch takes.
struct Shape {
  const char* what;
  const char* record;
  long long other_bytes;
  long long record_bytes;
  int max_records;
};

constexpr int records_fitting(long long parameter_bytes, const Shape& s) {
  return records_fitting(parameter_bytes, s.other_bytes, s.record_bytes, s.max_records);
}

// Records of one launch on `dev`: records_fitting of dev.max_parameter_bytes,
// or of kCudaParameterBytes where the API states no limit (CUDA: 0), as the
// CUDA kernels' compiled-in chunks are. Throws Unavailable, naming the limit,
// when not one record fits: never a default the device did not give.
int records_on(const DeviceInfo& dev, const Shape& s);

// Calls launch(start, count) for each launch's slice of `total` records taken
// `per_launch` at a time: [0, per_launch), [per_launch, 2 per_launch), .., the
// last one shorter. Both APIs' runners walk their chunks (and constant tiles)
// with it. Throws std::logic_error for per_launch < 1 (never a loop that does
// not end).
template <class Launch>
void for_each_chunk(int total, int per_launch, Launch&& launch) {
  if (per_launch < 1) throw std::logic_error("for_each_chunk: per_launch < 1");
  for (int start = 0; start < total; start += per_launch)
    launch(start, std::min(per_launch, total - start));
}

}  // namespace gpucmp::byvalue
