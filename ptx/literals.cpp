#include "literals.h"

#include <limits>

namespace gpucmp::ptx {
namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

bool all_digits(std::string_view s, int base) {
  if (s.empty()) return false;
  for (char c : s)
    if (digit_value(c) >= base) return false;
  return true;
}

std::string_view strip_unsigned_suffix(std::string_view s) {
  return !s.empty() && (s.back() == 'U' || s.back() == 'u') ? s.substr(0, s.size() - 1) : s;
}

// The base and digits of an integer literal, or base 0 when it is none.
int integer_base(std::string_view text, std::string_view& digits) {
  const std::string_view s = strip_unsigned_suffix(text);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    digits = s.substr(2);
    return all_digits(digits, 16) ? 16 : 0;
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    digits = s.substr(2);
    return all_digits(digits, 2) ? 2 : 0;
  }
  digits = s;
  if (s.size() > 1 && s[0] == '0') return all_digits(s, 8) ? 8 : 0;
  return all_digits(s, 10) ? 10 : 0;
}

// [0-9]+ ( '.' [0-9]* )? ( [eE] [+-]? [0-9]+ )?, with a '.' or an exponent.
bool is_decimal_float(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && digit_value(s[i]) < 10) ++i;
  if (i == 0) return false;
  bool fraction = false, exponent = false;
  if (i < s.size() && s[i] == '.') {
    fraction = true;
    ++i;
    while (i < s.size() && digit_value(s[i]) < 10) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < s.size() && digit_value(s[i]) < 10) ++i;
    if (i == start) return false;
    exponent = true;
  }
  return i == s.size() && (fraction || exponent);
}

}  // namespace

NumberKind classify_number(std::string_view text) {
  if (text.size() == 10 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F') &&
      all_digits(text.substr(2), 16))
    return NumberKind::Float;
  if (text.size() == 18 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D') &&
      all_digits(text.substr(2), 16))
    return NumberKind::Float;
  std::string_view digits;
  if (integer_base(text, digits) != 0) return NumberKind::Integer;
  return is_decimal_float(text) ? NumberKind::Float : NumberKind::Invalid;
}

bool parse_integer(std::string_view text, long long& value) {
  std::string_view digits;
  const int base = integer_base(text, digits);
  if (base == 0) return false;
  constexpr long long kMax = std::numeric_limits<long long>::max();
  long long v = 0;
  for (char c : digits) {
    const int d = digit_value(c);
    if (v > (kMax - d) / base) return false;
    v = v * base + d;
  }
  value = v;
  return true;
}

bool fits_in_64_bits(std::string_view text) {
  std::string_view digits;
  const int base = integer_base(text, digits);
  if (base == 0) return false;
  constexpr unsigned long long kMax = std::numeric_limits<unsigned long long>::max();
  unsigned long long v = 0;
  for (char c : digits) {
    const auto d = static_cast<unsigned long long>(digit_value(c));
    if (v > (kMax - d) / static_cast<unsigned long long>(base)) return false;
    v = v * static_cast<unsigned long long>(base) + d;
  }
  return true;
}

bool is_version_number(std::string_view text) {
  const std::size_t dot = text.find('.');
  return dot != std::string_view::npos && all_digits(text.substr(0, dot), 10) &&
         all_digits(text.substr(dot + 1), 10);
}

}  // namespace gpucmp::ptx
