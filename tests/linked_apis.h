// The APIs this build links, for the tests that link both runner libraries
// whole and register their runners in process (runner_catalog_test.cpp,
// tune_test.cpp).
#pragma once
#include <string>
#include <vector>

namespace gpucmp {

inline std::vector<std::string> linked_apis() {
#ifdef GPUCMP_HAVE_CUDA
  return {"cuda", "opencl"};
#else
  return {"opencl"};
#endif
}

}  // namespace gpucmp
