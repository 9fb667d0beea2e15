// What one compiled kernel needs of an SM, as its own API reports it: the
// tuner's occupancy term reads it (local_choice.h). CUDA: cudaFuncGetAttributes
// of the kernel nvcc built; OpenCL: the driver JIT's own report of the same
// program (NVIDIA's -cl-nv-verbose ptxas lines) and clGetKernelWorkGroupInfo.
// Zero means the API did not say.
#pragma once

namespace gpucmp {

struct KernelResources {
  int registers = 0;     // per thread
  long long shared = 0;  // bytes of static shared (CUDA) / local (OpenCL) memory per block
  int max_threads = 0;   // the largest block this kernel launches with
};

}  // namespace gpucmp
