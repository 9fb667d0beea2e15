// bandwidth: host<->device and device<->device copies, as the CUDA SDK's
// bandwidthTest. GB/s = 1e9 B/s; d2d counts bytes read + written.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../runner.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"

namespace gpucmp::bandwidth {

enum class Direction { h2d, d2h, d2d };
const char* to_string(Direction d);

// How the host side of a transfer is held:
//   pageable: ordinary malloc'd memory
//   pinned:   page-locked (CUDA cudaHostAlloc; OpenCL a CL_MEM_ALLOC_HOST_PTR
//             buffer kept mapped for its host pointer, NVIDIA's idiom)
//   mapped:   OpenCL clEnqueueMapBuffer / memcpy / clEnqueueUnmapMemObject
//   device:   no host side (d2d)
enum class HostMemory { pageable, pinned, mapped, device };
const char* to_string(HostMemory m);

struct Problem {
  std::size_t bytes = 0;              // a multiple of 4
  std::vector<std::uint32_t> source;  // the seeded pattern that is transferred
  std::vector<std::uint32_t> result;  // what arrived, downloaded here for checking
};

Problem make_problem(std::size_t bytes);

// Bytes one transfer counts: bytes, or 2 x bytes for d2d (read + write).
double counted_bytes(Direction d, std::size_t bytes);

// Sizes of a preset: quick {1 KiB, 64 KiB, 1 MiB, 16 MiB}; standard and large
// every power of two from 1 KiB to 1 GiB.
std::vector<std::size_t> preset_sizes(SizePreset size);

// Every word must arrive unchanged: max_rel_err is the fraction of words that
// differ, tolerance 0.
Validation validate(const Problem& p);

// "h2d-pinned", "d2h-pageable", "d2d", ...
std::string variant_name(Direction d, HostMemory m);

// A runner copies problem.source in `direction` (from its own host or device
// buffer filled with it at upload) and downloads what arrived into problem.result.
struct Variant {
  std::string name;  // variant_name(direction, memory)
  Direction direction;
  HostMemory memory;
};
Variant variant(Direction d, HostMemory m);
// Shared by both APIs: h2d and d2h from pageable and pinned memory, and d2d.
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::bandwidth
