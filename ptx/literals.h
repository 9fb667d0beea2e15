// PTX numeric literals: which kind a number token is, and integer values.
#pragma once
#include <string_view>

namespace gpucmp::ptx {

enum class NumberKind { Invalid, Integer, Float };

// Integer: 42, 0x1F, 017, 0b101, each optionally with a U suffix.
// Float: 0f3F800000 (8 hex digits), 0d3FF0000000000000 (16), 1.5, 1.5e-3, 2e10.
NumberKind classify_number(std::string_view text);

// The value of a non-negative integer literal; false when it is not one or does
// not fit in a signed 64-bit integer.
bool parse_integer(std::string_view text, long long& value);

// Whether an integer literal's value fits in 64 bits (unsigned: 0xFFFFFFFFFFFFFFFF
// is a valid PTX immediate).
bool fits_in_64_bits(std::string_view text);

// "9.0", "10.1": digits '.' digits.
bool is_version_number(std::string_view text);

}  // namespace gpucmp::ptx
