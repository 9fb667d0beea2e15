#include "cross_runners.h"

namespace gpucmp::cuda {

bool is_cross_variant(const std::string& variant) {
  for (const std::string tail : {"-opencl-ptx", "-ptx-jit"})
    if (variant.size() > tail.size() &&
        variant.compare(variant.size() - tail.size(), tail.size(), tail) == 0)
      return true;
  return false;
}

}  // namespace gpucmp::cuda
