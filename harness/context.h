// The JSON context (Google Benchmark's AddCustomContext): who measured what,
// with which drivers, compilers and options.
#pragma once
#include "api.h"
#include "options.h"

namespace gpucmp {

ContextList collect_context(const Options& opts, const ApiSet& apis);

// An OpenCL device that is the same GPU as the CUDA device (same PCI bus ID)
// takes the CUDA side's memory and link peaks, so both APIs' pct_peak share
// one denominator.
void share_device_peaks(ApiSet& apis);

}  // namespace gpucmp
