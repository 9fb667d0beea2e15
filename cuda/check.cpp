#include "check.h"

#include "errors.h"

namespace gpucmp::cuda {

std::string describe(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + " (" + cudaGetErrorString(err) + ")";
}

void check(cudaError_t err, const char* call, const std::string& what) {
  if (err == cudaSuccess) return;
  throw ApiError(std::string(call) + " (" + what + "): " + describe(err));
}

}  // namespace gpucmp::cuda
