// OpenCL error checking: every failing call becomes an ApiError naming the
// call, the error code's name and the object it was about.
#pragma once
#include <string>

#include "cl.h"

namespace gpucmp::opencl {

const char* error_name(cl_int code);  // "CL_OUT_OF_RESOURCES", or "CL error -1234"

// Throws ApiError "<call> (<what>): <error name>" unless code == CL_SUCCESS.
void check(cl_int code, const char* call, const std::string& what);

}  // namespace gpucmp::opencl
