#include "cross_runners.h"

#include "runners.h"

namespace gpucmp::cuda {

bool is_cross_variant(const std::string& variant) {
  for (const std::string tail : {"-opencl-ptx", "-ptx-jit"})
    if (variant.size() > tail.size() &&
        variant.compare(variant.size() - tail.size(), tail.size(), tail) == 0)
      return true;
  return false;
}

void register_cross_runners() {
  register_matrixmul_cross_runners();
  cp::add_api_only_runner("cuda", make_cp_cross_runner, cp_cross_variants());
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd})
    mri::add_api_only_runner(kind, "cuda", make_mri_cross_runner, mri_cross_variants());
}

}  // namespace gpucmp::cuda
