#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "workloads/agpu/scan.h"

namespace gpucmp::cuda {

// One launch of scan's alpha algorithm (harness/workloads/agpu/scan.h) over n
// words of `type`: `sums` holds scan::tiles(n, alpha) words of scratch;
// batched: the tile kernels load all their words before storing any
// (scan::Variant::batched, alpha one of scan::batched_has_alpha's).
void launch_scan_alpha(scan::Type type, const void* in, void* out, void* sums, std::size_t n,
                       int alpha, bool batched, cudaStream_t stream);

// One launch of scan's lookback algorithm: `status` holds
// scan::lookback_status_bytes(n, alpha) bytes, zeroed here before the kernel.
void launch_scan_lookback(scan::Type type, const void* in, void* out, void* status, std::size_t n,
                          int alpha, cudaStream_t stream);

// One launch of scan's onepass algorithm (scan_onepass.cu), alpha one of
// scan::onepass_has_alpha's: `status` as lookback's, zeroed here too; spin:
// poll predecessors without sleeping (scan::Variant::spin).
void launch_scan_onepass(scan::Type type, const void* in, void* out, void* status, std::size_t n,
                         int alpha, bool spin, cudaStream_t stream);

// CUB's DeviceScan::InclusiveSum: the temporary storage it needs (bytes), and
// one launch with it.
std::size_t cub_scan_temp_bytes(scan::Type type, std::size_t n);
void launch_cub_scan(scan::Type type, const void* in, void* out, std::size_t n, void* temp,
                     std::size_t temp_bytes, cudaStream_t stream);

}  // namespace gpucmp::cuda
