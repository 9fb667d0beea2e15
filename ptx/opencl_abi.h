// nvcc's PTX of a kernel, rewritten to the conventions NVIDIA's OpenCL expects
// of a program binary (clCreateProgramWithBinary), so that the same kernel can
// be timed through OpenCL as compiled by nvcc: "which compiler" apart from
// "which runtime". Measured on the H200 (driver 580): without `.ptr .global`
// on pointer parameters the build succeeds and the launch faults.
#pragma once
#include <string>
#include <vector>

#include "ir.h"

namespace gpucmp::ptx {

// Keeps the one .entry whose name contains `entry_contains` (std::invalid_argument
// when none or several do) and drops the other entries; renames it to
// `opencl_name` and its parameters to `<opencl_name>_param_<i>` (the loads that
// read them included); marks every .u64/.b64 parameter that the body converts
// with cvta.to.global as `.ptr .global .align 4`; drops .visible; adds
// `texmode_independent` to .target. Notes say what was done.
void rewrite_nvcc_kernel_for_opencl(Module& m, const std::string& entry_contains,
                                    const std::string& opencl_name,
                                    std::vector<std::string>* notes = nullptr);

}  // namespace gpucmp::ptx
