// Copies of a rectangle of a row-major float array between host and device
// (harness/work_split.h Rect): a split row's part uploads only what it reads
// and downloads only what it wrote. Both sides hold the whole array, `width`
// floats a row; blocking, on the session's queue.
#pragma once
#include <string>
#include <vector>

#include "handles.h"
#include "work_split.h"

namespace gpucmp::opencl {

void upload_rect(const Buffer& device, const std::vector<float>& host, long long width,
                 const Rect& r, const std::string& what);
void download_rect(std::vector<float>& host, const Buffer& device, long long width, const Rect& r,
                   const std::string& what);

}  // namespace gpucmp::opencl
