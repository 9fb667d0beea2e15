// The dispatch from a run-time alpha to the kernels compiled for it, shared by
// scan.cu (alpha and its tiles) and scan_onepass.cu.
#pragma once
#include <type_traits>

namespace gpucmp::cuda {

// Calls launch(std::integral_constant<int, A>{}) with A the one of Alphas that
// equals alpha, else otherwise().
template <int... Alphas, class Launch, class Otherwise>
void with_compiled_alpha(int alpha, Launch launch, Otherwise otherwise) {
  const bool found =
      ((alpha == Alphas ? (launch(std::integral_constant<int, Alphas>{}), true) : false) || ...);
  if (!found) otherwise();
}

}  // namespace gpucmp::cuda
