// Each workload's CUDA runners add themselves to the harness here.
#pragma once

namespace gpucmp::cuda {
void register_bandwidth_runners();
void register_matrixmul_runners();  // the tiled kernels and cuBLAS
void register_cp_runners();
void register_mri_runners();    // mriq and mrifhd
void register_cross_runners();  // -opencl-ptx and -ptx-jit (cross_runners.h)
}  // namespace gpucmp::cuda
