// Copies of a rectangle of a row-major float array between host and device
// (harness/work_split.h Rect): a split row's part uploads only what it reads
// and downloads only what it wrote. Both sides hold the whole array, `width`
// floats a row; on the runner's stream, waiting for it.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "work_split.h"

namespace gpucmp::cuda {

void upload_rect(float* device, const std::vector<float>& host, long long width, const Rect& r,
                 cudaStream_t stream, const std::string& what);
void download_rect(std::vector<float>& host, const float* device, long long width, const Rect& r,
                   cudaStream_t stream, const std::string& what);

}  // namespace gpucmp::cuda
