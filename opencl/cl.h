// The OpenCL headers as gpucmp uses them: OpenCL 3.0 API, 1.2 kernels.
#pragma once
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>
