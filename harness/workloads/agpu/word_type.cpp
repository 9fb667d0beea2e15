#include "word_type.h"

#include <cstring>

#include "../../errors.h"
#include "../../rng.h"

namespace gpucmp::agpu {

std::string to_string(Type t) { return t == Type::int32 ? "int32" : "float"; }

Type parse_type(const std::string& text, const std::string& what) {
  if (text == "int32") return Type::int32;
  if (text == "float") return Type::f32;
  throw UsageError(what + " " + text + ": not a type (int32, float)");
}

std::vector<std::uint32_t> make_words(std::size_t n, Type type) {
  std::vector<std::uint32_t> words(n);
  Rng rng(0x72656475ULL ^ n ^ (type == Type::int32 ? 0x100000000ULL : 0));
  for (std::size_t i = 0; i < n; ++i) {
    if (type == Type::int32) {
      words[i] = std::uint32_t(rng.next());
    } else {
      const float x = rng.uniform(-1, 1);
      std::memcpy(&words[i], &x, sizeof x);
    }
  }
  return words;
}

}  // namespace gpucmp::agpu
