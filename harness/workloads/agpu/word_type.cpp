#include "word_type.h"

#include <CLI/CLI.hpp>
#include <cstring>

#include "../../errors.h"
#include "../../options.h"
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
          sizes.push_back(
              std::size_t(parse_int(text, n, {kWordMultiple, kMaxWords, kWordMultiple})));
      },
      workload + ": words (comma-separated multiples of 256, at most 2^30), overriding --size")
      ->type_name("N");
  add_checked_list_option(
      app, type,
      [&types, type](const std::vector<std::string>& items) {
        for (const auto& text : items) types.push_back(parse_type(text, type));
      },
      workload + ": word types (comma-separated int32, float; default both)")
      ->type_name("LIST");
}

}  // namespace gpucmp::agpu
