// Pairs the kernels of two modules: CUDA's mangled names against OpenCL's plain
// ones.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace gpucmp::ptx {

// Whether a mangled C++ name (_Z...) holds `plain` as one identifier in its
// length-prefixed form (_ZN6gpucmp4cuda9matrixMulILi16E... holds "matrixMul").
bool mangled_names_identifier(const std::string& mangled, const std::string& plain);

// Pairs (index in a, index in b); -1 on one side for a kernel without partner.
// Matching order: equal names; then a mangled name holding the other as an
// identifier (ties go to the nearest position in file order); then the
// remaining ones by position. Pairs come in a's order,
// b's unmatched kernels last.
std::vector<std::pair<int, int>> match_kernels(const std::vector<std::string>& a,
                                               const std::vector<std::string>& b);

}  // namespace gpucmp::ptx
