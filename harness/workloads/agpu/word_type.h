// The 32-bit words of the AGPU workloads (reduce, scan): their types, the
// seeded input arrays, the OpenCL program names per type and the options that
// choose sizes and types. Three types, each with its operator:
//   int32     summed modulo 2^32 (two's complement, as unsigned in the kernels)
//   float     summed in FP32
//   affine16  the 2x2 matrix [[a, b], [0, 1]] over the integers modulo 2^16,
//             a in the word's high half and b in its low half, combined by the
//             matrix product l x r = [[a_l a_r, a_l b_r + b_l], [0, 1]]: an
//             associative operator that is not commutative, so a result is
//             right only where the algorithm keeps the words' order (the
//             issue's non-commutative check). Identity [[1, 0], [0, 1]].
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace gpucmp::agpu {

constexpr long long kMaxWords = 1LL << 30;  // 4 GiB

enum class Type { int32, f32, affine16 };
std::string to_string(Type t);  // "int32", "float", "affine16"
// "int32", "float" or "affine16"; throws UsageError "<what> <text>: not a type
// (int32, float, affine16)".
Type parse_type(const std::string& text, const std::string& what);

// affine16's identity and product (l x r: l's words come first).
constexpr std::uint32_t kAffineIdentity = 0x00010000U;
constexpr std::uint32_t affine_product(std::uint32_t l, std::uint32_t r) {
  const std::uint32_t al = l >> 16, bl = l & 0xffffU, ar = r >> 16, br = r & 0xffffU;
  return ((al * ar) & 0xffffU) << 16 | ((al * br + bl) & 0xffffU);
}

// n words seeded by n and the type: int32 uniform over all 2^32 values (sums
// wrap), float uniform in [-1, 1), as bits; affine16 with a odd (a unit
// modulo 2^16, so that no product collapses to a = 0) and b uniform.
std::vector<std::uint32_t> make_words(std::size_t n, Type type);

// The OpenCL program of a row: `variant` for float, `variant-int32`.
std::string program_of(const std::string& variant, Type t);

// --<workload>-n (any n in 1 .. kMaxWords: the kernels guard the last tile) into `sizes`
// and --<workload>-type into `types`.
void add_word_options(CLI::App& app, const std::string& workload, std::vector<std::size_t>& sizes,
                      std::vector<Type>& types);

}  // namespace gpucmp::agpu
