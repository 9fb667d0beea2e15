// The data-layout study: the generated accessors (gpucmp_layouts.h)
// agree with the host's index and conversion for AoS, SoA and AoSoA; the
// conversions round-trip; bad layouts and tiles are usage errors; LavaMD's
// boxes, neighbours and reference, and its validation catching a lost pair.
#include <gpucmp_layouts.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

#include "errors.h"
#include "workloads/layout/lavamd.h"
#include "workloads/layout/layouts.h"

namespace gpucmp::layout {
namespace {

TEST(Layouts, IndexOfEachLayout) {
  // 64 records of 4 words: record 37, word 2.
  EXPECT_EQ(index(Layout::aos, 32, 64, 4, 37, 2), 37u * 4 + 2);
  EXPECT_EQ(index(Layout::soa, 32, 64, 4, 37, 2), 2u * 64 + 37);
  EXPECT_EQ(index(Layout::aosoa, 32, 64, 4, 37, 2), 1u * 32 * 4 + 2u * 32 + 5);
}

TEST(Layouts, GeneratedAccessorsAreTheHostIndex) {
  const std::size_t n = 96;
  std::vector<float> p(n * BODY12_WORDS);
  std::iota(p.begin(), p.end(), 0.0f);
  for (const Layout l : {Layout::aos, Layout::soa, Layout::aosoa}) {
    const int GPUCMP_LAYOUT = int(l);  // what a kernel gets as -D or template parameter
    const int GPUCMP_TILE = 32;
    for (std::size_t i = 0; i < n; i += 7) {
      EXPECT_EQ(body12_mass(p, n, i), p[index(l, 32, n, 12, i, BODY12_MASS)]);
      EXPECT_EQ(body12_vel(p, n, i, 2), p[index(l, 32, n, 12, i, BODY12_VEL + 2)]);
      EXPECT_EQ(particle4_z(p, n, i), p[index(l, 32, n, 4, i, PARTICLE4_Z)]);
    }
    (void)GPUCMP_LAYOUT;
    (void)GPUCMP_TILE;
  }
  EXPECT_STREQ(BODY12_FIELDS, "pos,vel,acc,mass,charge,radius");
  EXPECT_EQ(BODY12_RADIUS, 11);
}

TEST(Layouts, RecordAndWordInvertTheIndex) {
  const std::size_t n = 96;
  for (const Layout l : {Layout::aos, Layout::soa, Layout::aosoa})
    for (const int words : {4, 12})
      for (std::size_t d = 0; d < n * std::size_t(words); ++d) {
        const int layout = int(l);
        const std::size_t i = GPUCMP_LAYOUT_RECORD(layout, 32, n, words, d);
        const std::size_t w = GPUCMP_LAYOUT_WORD(layout, 32, n, words, d);
        ASSERT_EQ(index(l, 32, n, words, i, int(w)), d) << to_string(l) << " " << words;
      }
}

TEST(Layouts, ConversionsRoundTripAndPlaceEveryWord) {
  const std::size_t n = 128;
  const int words = 12;
  std::vector<float> aos(n * words), soa(aos.size()), aosoa(aos.size()), back(aos.size());
  std::iota(aos.begin(), aos.end(), 0.0f);  // record i, word w holds i * 12 + w
  convert(aos.data(), Layout::aos, soa.data(), Layout::soa, n, words, 32);
  EXPECT_EQ(soa[5 * n + 77], float(77 * words + 5));
  convert(soa.data(), Layout::soa, aosoa.data(), Layout::aosoa, n, words, 32);
  EXPECT_EQ(aosoa[2 * 32 * words + 5 * 32 + 13], float((2 * 32 + 13) * words + 5));
  convert(aosoa.data(), Layout::aosoa, back.data(), Layout::aos, n, words, 32);
  EXPECT_EQ(back, aos);
}

// Enough records for several threads (convert_parallel splits records over
// them): the same words as convert, at each range's edges too.
TEST(Layouts, ConversionOverThreadsEqualsTheOneThreadConversion) {
  const std::size_t n = (std::size_t(4) << 16) + std::size_t(3 * 32);
  const int words = 3;
  std::vector<float> aos(n * words), soa(aos.size(), -1.0f), back(aos.size(), -1.0f);
  std::iota(aos.begin(), aos.end(), 0.0f);  // exact: below 2^24
  convert_parallel(aos.data(), Layout::aos, soa.data(), Layout::soa, n, words, 32);
  for (std::size_t i = 0; i < n; ++i)
    for (int w = 0; w < words; ++w)
      ASSERT_EQ(soa[std::size_t(w) * n + i], float(i * words + std::size_t(w))) << i << " " << w;
  convert_parallel(soa.data(), Layout::soa, back.data(), Layout::aosoa, n, words, 32);
  std::vector<float> one(aos.size(), -1.0f);
  convert(soa.data(), Layout::soa, one.data(), Layout::aosoa, n, words, 32);
  EXPECT_EQ(back, one);
  std::vector<float> again(aos.size(), -1.0f);
  convert_parallel(back.data(), Layout::aosoa, again.data(), Layout::aos, n, words, 32);
  EXPECT_EQ(again, aos);
}

TEST(Layouts, BadLayoutAndTileAreUsageErrors) {
  EXPECT_EQ(parse_layout("soa", "--x"), Layout::soa);
  try {
    parse_layout("aosa", "--lavamd-layout");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--lavamd-layout aosa: not a layout (aos, soa, aosoa)");
  }
  EXPECT_EQ(tile_mismatch(Layout::aosoa, 32, 6400), "");
  EXPECT_EQ(tile_mismatch(Layout::soa, 32, 12500), "");
  EXPECT_EQ(tile_mismatch(Layout::aosoa, 32, 12500),
            "the AoSoA tile of 32 records does not divide the 12500 records");
}

}  // namespace
}  // namespace gpucmp::layout

namespace gpucmp::lavamd {
namespace {

TEST(LavaMd, BoxesAndNeighbours) {
  const Problem p = make_problem(3);
  EXPECT_EQ(p.boxes, 27u);
  EXPECT_EQ(p.particles, 2700u);
  EXPECT_EQ(p.counts[0], 8);                                   // a corner: itself and 7
  EXPECT_EQ(p.counts[13], 27);                                 // the centre: itself and 26
  EXPECT_EQ(p.neighbours[std::size_t(13) * kNeighbours], 13);  // itself first
  EXPECT_EQ(p.checked.size(), p.particles);                    // small: every particle checked
  EXPECT_EQ(p.terms[0], 8 * kParPerBox);
  EXPECT_EQ(interactions(p), double(8 * 8 + 12 * 12 + 6 * 18 + 27) * kParPerBox * kParPerBox);
}

TEST(LavaMd, ValidationPassesTheReferenceAndCatchesALostPair) {
  Problem p = make_problem(2);
  for (std::size_t c = 0; c < p.checked.size(); ++c)
    for (int w = 0; w < 4; ++w) p.fv[p.checked[c] * 4 + w] = float(p.ref[c * 4 + w]);
  EXPECT_TRUE(validate(p).ok) << validate(p).describe();
  // One pair fewer in particle 5's v: its largest term is at least scale / terms.
  const std::size_t word = std::size_t(5) * 4;
  p.fv[word] -= float(p.scale[word] / p.terms[5]);
  const Validation v = validate(p);
  EXPECT_FALSE(v.ok) << v.describe();
  EXPECT_NE(v.where.find("fv[5].v"), std::string::npos) << v.where;
}

}  // namespace
}  // namespace gpucmp::lavamd
