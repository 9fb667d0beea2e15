// The 32-bit words of the AGPU workloads (reduce, scan): their types, int32
// (summed modulo 2^32: two's complement, as unsigned in the kernels) and
// float, the seeded input arrays, the OpenCL program names per type and the
// options that choose sizes and types.
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
constexpr int kWordMultiple = 256;          // sizes are whole blocks

enum class Type { int32, f32 };
std::string to_string(Type t);  // "int32", "float"
// "int32" or "float"; throws UsageError "<what> <text>: not a type (int32, float)".
Type parse_type(const std::string& text, const std::string& what);

// n words seeded by n and the type: int32 uniform over all 2^32 values (sums
// wrap), float uniform in [-1, 1), as bits.
std::vector<std::uint32_t> make_words(std::size_t n, Type type);

// The OpenCL program of a row: `variant` for float, `variant-int32`.
std::string program_of(const std::string& variant, Type t);

// --<workload>-n (multiples of kWordMultiple, at most kMaxWords) into `sizes`
// and --<workload>-type into `types`.
void add_word_options(CLI::App& app, const std::string& workload, std::vector<std::size_t>& sizes,
                      std::vector<Type>& types);

}  // namespace gpucmp::agpu
