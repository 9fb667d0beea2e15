// What one compiled kernel needs of an SM, as its own API reports it: the
// tuner's occupancy term reads it (local_choice.h). CUDA: cudaFuncGetAttributes
// of the kernel nvcc built; OpenCL: the driver JIT's own report of the same
// program (NVIDIA's -cl-nv-verbose ptxas lines) and clGetKernelWorkGroupInfo
// (on NVIDIA, the largest block from the registers: opencl/group_size.h).
// Zero means the API did not say.
#pragma once

namespace gpucmp {

struct KernelResources {
  int registers = 0;     // per thread
  long long shared = 0;  // bytes of static shared (CUDA) / local (OpenCL) memory per block
  int max_threads = 0;   // the largest block this kernel launches with
  // What the API's own query said of the largest block, where max_threads is
  // not it (OpenCL on NVIDIA: CL_KERNEL_WORK_GROUP_SIZE; opencl/group_size.h).
  int reported_max_threads = 0;
};

}  // namespace gpucmp
