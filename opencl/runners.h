// Each workload's OpenCL runners add themselves to the harness here.
#pragma once

namespace gpucmp::opencl {
void register_bandwidth_runners();
void register_matrixmul_runners();  // the tiled kernels, then CLBlast
void register_clblast_runner();     // matrixMul/opencl/clblast (no-op without CLBlast)
void register_cp_runners();
void register_mri_runners();  // mriq and mrifhd
}  // namespace gpucmp::opencl
