// NVIDIA OpenCL's PTX of a program, rewritten so that the CUDA driver can load
// it (cudaLibraryLoadData / cuModuleLoadData) and CUDA can launch its kernels
// with the same geometry: the code OpenCL's compiler produced, JIT-compiled
// and run by CUDA (the cross-run rows `<variant>-opencl-ptx`). The mirror of
// opencl_abi.h. Two conventions differ (docs/DESIGN.md
// "OpenCL PTX conventions"):
//
//  - OpenCL reads its launch environment from %envreg registers, which CUDA
//    never sets (a cubin from OpenCL's cache faults under CUDA because of
//    them). As NVIDIA's OpenCL uses them (read off its PTX: matrixMul's
//    get_group_id(d) is %ctaid + %envreg<d>; cp's get_global_id(0) is
//    %ntid.x * %ctaid.x + %tid.x + %envreg3 and its get_global_size(0) is
//    %envreg6 * %ntid.x):
//      %envreg0..2  work-group offset x, y, z   -> 0
//      %envreg3..5  global offset x, y, z       -> 0
//      %envreg6..8  number of work-groups       -> %nctaid.x, .y, .z
//    Valid for launches without a global offset that cover the NDRange in one
//    grid, which is how gpucmp launches everything. Any other %envreg, or an
//    envreg read by anything but `mov` into a register, is refused.
//  - A `__constant` pointer parameter (`.param .u64 .ptr .const`) carries an
//    address in the constant space, where OpenCL's runtime has copied the
//    buffer; a CUDA device pointer is no such address. Each such parameter is
//    redirected to one module-level `.const` array, kConstantArgSymbol
//    (`ld.param.u64 %rd, [param]` becomes `mov.u64 %rd, kConstantArgSymbol`,
//    as nvcc addresses a __constant__ array): the caller copies the buffer
//    there before each launch (cudaLibraryGetGlobal), as CUDA's own runners
//    fill their __constant__ symbol. The parameter stays, unused, so that the
//    argument list is still OpenCL's.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "ir.h"

namespace gpucmp::ptx {

// The `.visible .const .align 16 .b8 <name>[bytes]` array added for
// `__constant` pointer parameters.
constexpr const char* kConstantArgSymbol = "gpucmp_opencl_constant_arg";

// Rewrites every kernel of `m` as described above. `constant_arg_bytes` sizes
// the constant array (at most 65536); it must be > 0 when some kernel has a
// `__constant` pointer parameter, and is ignored otherwise. Throws
// std::invalid_argument, naming the kernel and the line, for what it cannot
// rewrite safely: an unknown %envreg, an envreg not read by `mov` into a
// register, a kernel with two `__constant` pointer parameters, such a
// parameter read other than by `ld.param.u64` into a register, a missing or
// oversized constant size. Notes say what was done, one per kernel and kind.
void rewrite_opencl_kernel_for_cuda(Module& m, std::size_t constant_arg_bytes = 0,
                                    std::vector<std::string>* notes = nullptr);

}  // namespace gpucmp::ptx
