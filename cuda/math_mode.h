// The Parboil kernels are compiled twice: precise (the default flags, CMake
// target gpucmp_cuda_kernels) and fast (--use_fast_math, gpucmp_cuda_kernels_fast;
// both in cuda/CMakeLists.txt). Each compilation puts its kernels in its own
// namespace, named by GPUCMP_MATH_NS.
#pragma once
#ifdef GPUCMP_FAST_MATH
#define GPUCMP_MATH_NS fast
#else
#define GPUCMP_MATH_NS precise
#endif
