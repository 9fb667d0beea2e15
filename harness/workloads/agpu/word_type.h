// The 32-bit words of the AGPU workloads (reduce, scan): their types, int32
// (summed modulo 2^32: two's complement, as unsigned in the kernels) and
// float, and the seeded input arrays.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpucmp::agpu {

enum class Type { int32, f32 };
std::string to_string(Type t);  // "int32", "float"
// "int32" or "float"; throws UsageError "<what> <text>: not a type (int32, float)".
Type parse_type(const std::string& text, const std::string& what);

// n words seeded by n and the type: int32 uniform over all 2^32 values (sums
// wrap), float uniform in [-1, 1), as bits.
std::vector<std::uint32_t> make_words(std::size_t n, Type type);

}  // namespace gpucmp::agpu
