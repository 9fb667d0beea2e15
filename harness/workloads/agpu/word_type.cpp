#include "word_type.h"

#include <CLI/CLI.hpp>
#include <cstring>

#include "../../errors.h"
#include "../../options.h"
#include "../../rng.h"

namespace gpucmp::agpu {

std::string to_string(Type t) {
  switch (t) {
    case Type::int32:
      return "int32";
    case Type::affine16:
      return "affine16";
    case Type::f32:
      break;
  }
  return "float";
}

Type parse_type(const std::string& text, const std::string& what) {
  if (text == "int32") return Type::int32;
  if (text == "float") return Type::f32;
  if (text == "affine16") return Type::affine16;
  throw UsageError(what + " " + text + ": not a type (int32, float, affine16)");
}

std::vector<std::uint32_t> make_words(std::size_t n, Type type) {
  std::vector<std::uint32_t> words(n);
  const std::uint64_t stream = type == Type::int32 ? 1 : type == Type::affine16 ? 2 : 0;
  Rng rng(0x72656475ULL ^ n ^ (stream << 32));
  for (std::size_t i = 0; i < n; ++i) {
    if (type == Type::int32) {
      words[i] = std::uint32_t(rng.next());
    } else if (type == Type::affine16) {
      words[i] = std::uint32_t(rng.next()) | 0x00010000U;  // a odd
    } else {
      const float x = rng.uniform(-1, 1);
      std::memcpy(&words[i], &x, sizeof x);
    }
  }
  return words;
}

std::string program_of(const std::string& variant, Type t) {
  return t == Type::f32 ? variant : variant + "-" + to_string(t);
}

void add_word_options(CLI::App& app, const std::string& workload, std::vector<std::size_t>& sizes,
                      std::vector<Type>& types) {
  const std::string n = "--" + workload + "-n", type = "--" + workload + "-type";
  add_checked_list_option(
      app, n,
      [&sizes, n](const std::vector<std::string>& items) {
        for (const auto& text : items)
          sizes.push_back(std::size_t(parse_int(text, n, {1, kMaxWords})));
      },
      workload + ": words (comma-separated, 1 .. 2^30), overriding --size")
      ->type_name("N");
  add_checked_list_option(
      app, type,
      [&types, type](const std::vector<std::string>& items) {
        for (const auto& text : items) types.push_back(parse_type(text, type));
      },
      workload +
          ": word types (comma-separated int32, float, affine16: the non-commutative 2x2 "
          "matrix product; default int32, float)")
      ->type_name("LIST");
}

}  // namespace gpucmp::agpu
