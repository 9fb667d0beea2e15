// Mutation fuzzing of the parser: every fixture, up to 2000 seeded mutants
// each (bytes or lines deleted, inserted, replaced, duplicated). A mutant must
// parse or throw ParseError; what parses must print to a fixed point and go
// through normalize and stats (some also through diff). Bounded in time (a few
// seconds in all) so CI stays fast: slow builds run fewer mutants.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <random>
#include <typeinfo>

#include "ptx/diff.h"
#include "ptx/files.h"
#include "ptx/normalize.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptx/stats.h"

namespace gpucmp::ptx {
namespace {

constexpr int kMutantsPerFixture = 2000;
constexpr auto kTimeBudget = std::chrono::seconds(4);  // for all fixtures together

// Bytes that tend to matter to a PTX parser, plus any byte at all.
char interesting_byte(std::mt19937& rng) {
  static const std::string kSyntax = "{}[]()<>;:,.%@!|+-_$\"/*\n\t 0123456789fdxe";
  if (rng() % 4 == 0) return static_cast<char>(rng() % 256);
  return kSyntax[rng() % kSyntax.size()];
}

// A random line of `text` as [begin, end) including its newline.
std::pair<std::size_t, std::size_t> random_line(const std::string& text, std::mt19937& rng) {
  const std::size_t at = rng() % (text.size() + 1);
  const std::size_t begin = text.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t first = begin == std::string::npos || at == 0 ? 0 : begin + 1;
  const std::size_t end = text.find('\n', at);
  return {first, end == std::string::npos ? text.size() : end + 1};
}

void mutate_once(std::string& text, std::mt19937& rng) {
  const std::size_t at = text.empty() ? 0 : rng() % text.size();
  switch (rng() % 7) {
    case 0:  // delete a few bytes
      text.erase(at, 1 + rng() % 8);
      break;
    case 1:  // insert a few bytes
      for (int n = 1 + int(rng() % 4); n > 0; --n)
        text.insert(text.begin() + std::ptrdiff_t(at), interesting_byte(rng));
      break;
    case 2:  // replace one byte
      if (!text.empty()) text[at] = interesting_byte(rng);
      break;
    case 3: {  // delete a line
      const auto [begin, end] = random_line(text, rng);
      text.erase(begin, end - begin);
      break;
    }
    case 4: {  // duplicate a line somewhere else
      const auto [begin, end] = random_line(text, rng);
      const std::string line = text.substr(begin, end - begin);
      text.insert(rng() % (text.size() + 1), line);
      break;
    }
    case 5: {  // copy a short chunk (a token or two) elsewhere
      const std::string chunk = text.substr(at, 1 + rng() % 12);
      text.insert(rng() % (text.size() + 1), chunk);
      break;
    }
    default:  // cut the file short
      text.resize(at);
      break;
  }
}

// Everything a parsed mutant must survive; `thorough` adds the costlier diff
// and table (every 16th mutant that parses).
void exercise(const Module& m, const std::string& name, bool thorough) {
  const std::string printed = print(m);
  const Module reparsed = parse(printed, name + " (printed)");
  ASSERT_EQ(printed, print(reparsed)) << name;
  Module normalized = m;
  normalize(normalized);
  (void)compute_stats(normalized);
  if (!thorough) return;
  (void)to_table(compute_stats(m));
  (void)diff(m, reparsed, "a", "b");
}

TEST(PtxFuzz, MutantsParseOrThrowParseError) {
  const auto files = list_files(GPUCMP_PTX_FIXTURES);
  ASSERT_FALSE(files.empty());
  const auto start = std::chrono::steady_clock::now();
  int mutants = 0, parsed = 0;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const std::string original = read_text_file(files[f]);
    std::mt19937 rng(static_cast<std::mt19937::result_type>(1234 + f));
    // Each fixture gets an equal share of the budget.
    const auto deadline =
        start + kTimeBudget * static_cast<int>(f + 1) / static_cast<int>(files.size());
    for (int i = 0; i < kMutantsPerFixture && std::chrono::steady_clock::now() < deadline; ++i) {
      std::string text = original;
      for (int n = 1 + int(rng() % 3); n > 0; --n) mutate_once(text, rng);
      const std::string name = files[f] + " mutant " + std::to_string(i);
      ++mutants;
      try {
        const Module m = parse(text, name);
        exercise(m, name, parsed++ % 16 == 0);
      } catch (const ParseError&) {
        // expected for most mutants
      } catch (const std::exception& e) {
        ADD_FAILURE() << name << ": " << typeid(e).name() << ": " << e.what();
      }
      if (HasFailure()) return;
    }
  }
  RecordProperty("mutants", mutants);
  RecordProperty("parsed", parsed);
  EXPECT_GT(mutants, 100);
  std::printf("%d mutants, %d parsed\n", mutants, parsed);
}

TEST(PtxFuzz, RandomBytes) {
  std::mt19937 rng(99);
  for (int i = 0; i < 2000; ++i) {
    std::string text(rng() % 200, '\0');
    for (auto& c : text) c = interesting_byte(rng);
    try {
      exercise(parse(text, "random"), "random", true);
    } catch (const ParseError&) {
    }
  }
}

TEST(PtxFuzz, DeepNestingAndLongInputsDoNotOverflowTheStack) {
  const std::string prefix = ".version 9.0\n.target sm_90\n.entry k() {\n";
  for (const std::string& body :
       {std::string(100000, '{'), "mov.u32 %r1, " + std::string(100000, '{') + ";",
        "setp.eq.s32 %p1" + std::string(50000, '|') + ";",
        "mov.u32 %r1, " + std::string(100000, '-') + "1;",
        std::string(100000, '{') + std::string(100000, '}') + "}"}) {
    try {
      exercise(parse(prefix + body, "deep"), "deep", true);
    } catch (const ParseError&) {
    }
  }
}

}  // namespace
}  // namespace gpucmp::ptx
