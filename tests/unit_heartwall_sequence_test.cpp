// HeartWall's generated input (harness/workloads/heartwall/): the sequence's
// shape and Rodinia's point counts, the same bytes for a seed on every
// machine, the walls and their motion, the truth that tracking is checked
// against (and a small template tracker following it), the integer math the
// generator rests on, and the two files Rodinia's heartwall reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "errors.h"
#include "workloads/heartwall/fixed_math.h"
#include "workloads/heartwall/rodinia_files.h"
#include "workloads/heartwall/sequence.h"
#include "workloads/heartwall/speckle.h"
#include "workloads/heartwall/wall_geometry.h"

namespace gpucmp::heartwall {
namespace {

// Rodinia's length, seed 1: made once (about half a second) for the tests below.
const Sequence& seed1() {
  static const Sequence s = make_sequence(kRodiniaFrames, 1);
  return s;
}

std::uint64_t fnv1a(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ULL;
  return h;
}

double frame_mean(const Sequence& s, int f) {
  double sum = 0;
  for (int i = 0; i < s.width * s.height; ++i) sum += s.frame(f)[i];
  return sum / (s.width * s.height);
}

double distance(PointF a, PointF b) { return std::hypot(a.row - b.row, a.col - b.col); }

// The wall's centre line in direction n of frame f, in pixels.
PointF wall_point(const FrameGeometry& g, const WallShape& wall, Dir n) {
  const double r = double(wall_radius(wall, n)) / kSub;
  return {double(g.cy) / kSub + r * double(n.y) / kUnit,
          double(g.cx) / kSub + r * double(n.x) / kUnit};
}

Dir direction(int k, int n) {
  const SinCos t = sin_cos_q30(turn_fraction(k, n));
  return {round_shift(t.cos, 16), round_shift(t.sin, 16)};
}

TEST(HeartwallSequence, ShapeIsRodiniasTestAvi) {
  const Sequence& s = seed1();
  EXPECT_EQ(s.width, 609);
  EXPECT_EQ(s.height, 590);
  EXPECT_EQ(s.frames, 104);
  EXPECT_EQ(s.pixels.size(), std::size_t(609) * 590 * 104);
  EXPECT_EQ(s.endo.size(), 20U);
  EXPECT_EQ(s.epi.size(), 31U);
  EXPECT_EQ(s.points(), 51);
  EXPECT_EQ(s.truths.size(), std::size_t(51) * 104);
  EXPECT_EQ(s.point(0), s.endo[0]);  // Rodinia's order: the endocardium's first
  EXPECT_EQ(s.point(20), s.epi[0]);
}

TEST(HeartwallSequence, SameSeedSameBytesOnEveryMachine) {
  EXPECT_EQ(make_sequence(kRodiniaFrames, 1).pixels, seed1().pixels);
  // FNV-1a of seed 1's 37 MB, computed once with this generator (GCC 12 on
  // x86-64; GCC -O0 and Clang 14 -O3 -march=native -ffp-contract=fast gave the
  // same). Every step is integer arithmetic or std::mt19937_64 (whose output
  // the standard fixes), so every machine and compiler must give this; a
  // change here changes the input of every HeartWall result recorded.
  EXPECT_EQ(fnv1a(seed1().pixels), 5924925175776879434ULL);
}

TEST(HeartwallSequence, DifferentSeedsDifferInNoiseOnly) {
  const Sequence other = make_sequence(2, 2);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < other.pixels.size(); ++i)
    differ += other.pixels[i] != seed1().pixels[i];
  EXPECT_GT(differ, other.pixels.size() * 3 / 4);
  // The heart is the same for every seed: points and truths.
  EXPECT_EQ(other.endo, seed1().endo);
  EXPECT_EQ(other.epi, seed1().epi);
}

TEST(HeartwallSequence, FramesDoNotDependOnHowManyAreMade) {
  const Sequence few = make_sequence(3, 1);
  EXPECT_TRUE(std::equal(few.pixels.begin(), few.pixels.end(), seed1().pixels.begin()));
}

TEST(HeartwallSequence, BadFrameCountIsAUsageError) {
  EXPECT_THROW(make_sequence(0, 1), UsageError);
}

TEST(HeartwallSequence, PointsLieOnTheirBrightWalls) {
  // Speckle can darken a 3 x 3 patch (the worst of 40 seeds is 1.4x the
  // frame's mean), so each point's 5 x 5 patch (worst 1.75x) is checked, and
  // the 3 x 3 patches on average.
  const Sequence& s = seed1();
  const double background = frame_mean(s, 0);
  EXPECT_LT(background, 45);
  double sum3 = 0;
  for (int i = 0; i < s.points(); ++i) {
    const Point p = s.point(i);
    double patch3 = 0, patch5 = 0;
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) {
        patch5 += s.at(0, p.row + dy, p.col + dx);
        if (std::abs(dy) <= 1 && std::abs(dx) <= 1) patch3 += s.at(0, p.row + dy, p.col + dx);
      }
    EXPECT_GT(patch5 / 25, 1.5 * background) << "point " << i;
    sum3 += patch3 / 9;
  }
  EXPECT_GT(sum3 / s.points(), 3 * background);
}

TEST(HeartwallSequence, PointsAreSpreadRoundTheirWallsInRodiniasOrder) {
  // Consecutive points turn clockwise on screen (rows down, columns right),
  // starting right of the centre.
  const FrameGeometry g = frame_geometry(0);
  for (const std::vector<Point>* wall : {&seed1().endo, &seed1().epi}) {
    EXPECT_GT(wall->front().col * kSub, g.cx);
    for (std::size_t i = 0; i < wall->size(); ++i) {
      const Point a = (*wall)[i];
      const Point b = (*wall)[(i + 1) % wall->size()];
      const std::int64_t cross = (a.col * kSub - g.cx) * (b.row * kSub - g.cy) -
                                 (a.row * kSub - g.cy) * (b.col * kSub - g.cx);
      EXPECT_GT(cross, 0) << "point " << i;
    }
  }
  // Their tissue stays 41 px or more from every edge in every frame, so that
  // Rodinia's 81 x 81 search window around a tracked point stays in the frame.
  for (int f = 0; f < seed1().frames; ++f)
    for (int i = 0; i < seed1().points(); ++i) {
      const PointF t = seed1().truth(f, i);
      EXPECT_GE(std::min({t.row, t.col, kHeight - 1 - t.row, kWidth - 1 - t.col}), 41.0)
          << "frame " << f << ", point " << i;
    }
}

TEST(HeartwallSequence, EpicardiumEnclosesEndocardium) {
  for (int f = 0; f < kRodiniaFrames; ++f) {
    const FrameGeometry g = frame_geometry(f);
    for (int k = 0; k < 720; ++k) {
      const Radii r = radii(g, direction(k, 720));
      ASSERT_GE(r.epi - r.endo, 30 * kSub) << "frame " << f << ", direction " << k;
      ASSERT_GE(r.endo, 70 * kSub) << "frame " << f << ", direction " << k;
    }
  }
  // In the pixels: the blood pool at the centre is darker than the tissue outside.
  const Sequence& s = seed1();
  const FrameGeometry g = frame_geometry(0);
  double pool = 0;
  for (int dy = -20; dy < 20; ++dy)
    for (int dx = -20; dx < 20; ++dx) pool += s.at(0, int(g.cy / kSub) + dy, int(g.cx / kSub) + dx);
  EXPECT_LT(pool / 1600, 0.5 * frame_mean(s, 0));
}

TEST(HeartwallSequence, WallsMoveAtMostTheStatedStepAFrame) {
  // Every wall point (720 directions) and every sample point's tissue moves at
  // most kMaxStepPixels from one frame to the next, and the heart does beat:
  // the endocardium moves 6 px or more by end-systole (frame 13; 7.9 to 14.8).
  double largest = 0;
  for (int f = 1; f < kRodiniaFrames; ++f) {
    const FrameGeometry before = frame_geometry(f - 1);
    const FrameGeometry now = frame_geometry(f);
    for (int k = 0; k < 720; ++k) {
      const Dir n = direction(k, 720);
      largest = std::max(
          {largest, distance(wall_point(before, before.endo, n), wall_point(now, now.endo, n)),
           distance(wall_point(before, before.epi, n), wall_point(now, now.epi, n))});
    }
    for (int i = 0; i < seed1().points(); ++i)
      largest = std::max(largest, distance(seed1().truth(f - 1, i), seed1().truth(f, i)));
  }
  EXPECT_LE(largest, kMaxStepPixels);
  EXPECT_GT(largest, 1.0);
  for (int i = 0; i < kEndoPoints; ++i)
    EXPECT_GT(distance(seed1().truth(0, i), seed1().truth(13, i)), 6.0) << "point " << i;
}

TEST(HeartwallSequence, TruthStartsAtThePointsAndStaysOnTheWall) {
  const Sequence& s = seed1();
  for (int i = 0; i < s.points(); ++i) {
    const Point p = s.point(i);
    EXPECT_LE(distance(s.truth(0, i), {double(p.row), double(p.col)}), 0.1) << "point " << i;
  }
  // The tissue under a point stays within a pixel of its wall's centre line
  // (the point was rounded to a pixel off it by up to 0.71 px).
  for (int f = 0; f < s.frames; ++f) {
    const FrameGeometry g = frame_geometry(f);
    for (int i = 0; i < s.points(); ++i) {
      const PointF t = s.truth(f, i);
      const Polar at = polar(std::llround(t.col * kSub) - g.cx, std::llround(t.row * kSub) - g.cy);
      const WallShape& wall = i < kEndoPoints ? g.endo : g.epi;
      EXPECT_LE(std::abs(at.length - wall_radius(wall, at.dir)), kSub)
          << "frame " << f << ", point " << i;
    }
  }
}

// Rodinia's tracking in miniature: the (2*25+1)^2 template around the point in
// frame 0, found again in each later frame by normalized cross-correlation
// within 4 px of where it was last (Rodinia: 10 x 10); no template updates.
std::vector<Point> track(const Sequence& s, Point start, int frames) {
  constexpr int t = 25;
  constexpr int reach = 4;
  constexpr int n = (2 * t + 1) * (2 * t + 1);
  std::vector<double> tmpl;
  for (int dy = -t; dy <= t; ++dy)
    for (int dx = -t; dx <= t; ++dx) tmpl.push_back(s.at(0, start.row + dy, start.col + dx));
  double mean = 0;
  for (const double v : tmpl) mean += v / n;
  double norm = 0;
  for (double& v : tmpl) {
    v -= mean;
    norm += v * v;
  }
  std::vector<Point> path{start};
  for (int f = 1; f < frames; ++f) {
    const Point last = path.back();
    Point best = last;
    double best_score = -2;
    for (int oy = -reach; oy <= reach; ++oy)
      for (int ox = -reach; ox <= reach; ++ox) {
        double sum = 0, sum2 = 0, cross = 0;
        for (int dy = -t, k = 0; dy <= t; ++dy) {
          const std::uint8_t* line =
              s.frame(f) + std::ptrdiff_t(last.row + oy + dy) * s.width + last.col + ox - t;
          for (int dx = 0; dx <= 2 * t; ++dx, ++k) {
            const double v = line[dx];
            sum += v;
            sum2 += v * v;
            cross += v * tmpl[std::size_t(k)];
          }
        }
        const double score = cross / std::sqrt((sum2 - sum * sum / n) * norm);
        if (score > best_score) {
          best = {last.row + oy, last.col + ox};
          best_score = score;
        }
      }
    path.push_back(best);
  }
  return path;
}

TEST(HeartwallSequence, TemplateMatchingFollowsTheTruth) {
  // Over the contraction (frames 0 to 13, the largest motion) every point is
  // tracked to within 3 px of its truth, 1 px on average: the speckle moves
  // with the tissue, the fresh noise keeps the match inexact. (Rodinia 3.1's
  // own OpenMP heartwall over all 104 frames: 0.47 px on average, at most
  // 3.1 px; docs/studies/heartwall.md.)
  const Sequence& s = seed1();
  double sum = 0;
  int count = 0;
  for (int i = 0; i < s.points(); ++i) {
    const std::vector<Point> path = track(s, s.point(i), 14);
    for (int f = 1; f < 14; ++f) {
      const double error = distance({double(path[f].row), double(path[f].col)}, s.truth(f, i));
      EXPECT_LE(error, 3.0) << "frame " << f << ", point " << i;
      sum += error;
      ++count;
    }
  }
  EXPECT_LT(sum / count, 1.0);
}

TEST(HeartwallSequence, SpeckleIsRayleighWithMeanOne) {
  // Rayleigh: sd / mean = sqrt(4 / pi - 1) = 0.523; mean scaled to 256.
  const SpeckleField speckle(1);
  double sum = 0, sum2 = 0;
  for (const std::uint16_t v : speckle.values()) {
    sum += v;
    sum2 += double(v) * v;
  }
  const auto n = double(speckle.values().size());
  EXPECT_EQ(n, double(speckle.width()) * speckle.height());
  EXPECT_NEAR(sum / n, 256, 0.5);
  EXPECT_NEAR(std::sqrt(sum2 / n - (sum / n) * (sum / n)) / (sum / n), 0.523, 0.02);
}

TEST(HeartwallSequence, FixedPointMathIsExactEnough) {
  for (std::int64_t k = 0; k < 4096; ++k) {
    const SinCos t = sin_cos_q30(turn_fraction(k, 4096));
    const double angle = 2 * 3.14159265358979323846 * double(k) / 4096;
    ASSERT_NEAR(double(t.sin) / kQ30, std::sin(angle), 4e-9) << k;
    ASSERT_NEAR(double(t.cos) / kQ30, std::cos(angle), 4e-9) << k;
  }
  EXPECT_EQ(turn_fraction(-1, 4), turn_fraction(3, 4));
  for (std::int64_t r : {0LL, 1LL, 2LL, 1LL << 26, 3037000499LL}) {
    EXPECT_EQ(isqrt(r * r), r);
    if (r > 0) {
      EXPECT_EQ(isqrt(r * r - 1), r - 1);
    }
  }
  EXPECT_EQ(round_shift(24, 4), 2);
  EXPECT_EQ(round_shift(-24, 4), -2);
  EXPECT_EQ(round_div(-7, 2), -4);
  EXPECT_EQ(round_div(7, 2), 4);
}

TEST(HeartwallSequence, InputTxtIsRodiniasFormat) {
  const Sequence& s = seed1();
  std::istringstream in(rodinia_input_txt(s));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "25 40 10 0.87");
  std::getline(in, line);
  EXPECT_EQ(line, "20 31");
  for (const auto& [points, row] : {std::pair{&s.endo, true}, std::pair{&s.endo, false},
                                    std::pair{&s.epi, true}, std::pair{&s.epi, false}}) {
    std::getline(in, line);
    std::istringstream numbers(line);
    std::vector<int> got{std::istream_iterator<int>(numbers), std::istream_iterator<int>()};
    ASSERT_EQ(got.size(), points->size());
    for (std::size_t i = 0; i < got.size(); ++i)  // counted from 1
      EXPECT_EQ(got[i], (row ? (*points)[i].row : (*points)[i].col) + 1);
  }
}

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | std::uint32_t(b[at + 3]) << 24;
}

std::size_t find_code(const std::vector<std::uint8_t>& b, const std::string& code) {
  return std::size_t(std::search(b.begin(), b.end(), code.begin(), code.end()) - b.begin());
}

TEST(HeartwallSequence, AviHoldsTheFramesAsRodiniasReaderWantsThem) {
  // The fields Rodinia's avilib reads (avi_parse_input_file), and every frame
  // behind its idx1 entry: exactly width x height bytes, rows bottom-up.
  // (Rodinia's own avilib and get_frame read this file back unchanged:
  // docs/studies/heartwall.md.)
  const Sequence s = make_sequence(3, 5);
  const std::vector<std::uint8_t> avi = rodinia_avi(s);
  ASSERT_EQ(std::string(avi.begin(), avi.begin() + 4), "RIFF");
  EXPECT_EQ(std::string(avi.begin() + 8, avi.begin() + 12), "AVI ");
  EXPECT_EQ(u32_at(avi, 4), avi.size() - 8);
  const std::size_t strh = find_code(avi, "strh") + 8;
  EXPECT_EQ(std::string(avi.begin() + long(strh), avi.begin() + long(strh) + 4), "vids");
  EXPECT_EQ(u32_at(avi, strh + 32), 3U);  // frames
  const std::size_t strf = find_code(avi, "strf") + 8;
  EXPECT_EQ(u32_at(avi, strf + 4), 609U);
  EXPECT_EQ(u32_at(avi, strf + 8), 590U);
  EXPECT_EQ(u32_at(avi, strf + 16), 0U);  // uncompressed
  const std::size_t movi = find_code(avi, "movi");
  const std::size_t idx1 = find_code(avi, "idx1");
  ASSERT_LT(idx1, avi.size());
  EXPECT_EQ(u32_at(avi, idx1 + 4), 3U * 16);
  for (int f = 0; f < 3; ++f) {
    const std::size_t entry = idx1 + 8 + std::size_t(f) * 16;
    const std::size_t chunk = movi + u32_at(avi, entry + 8);
    EXPECT_EQ(std::string(avi.begin() + long(chunk), avi.begin() + long(chunk) + 4), "00db");
    ASSERT_EQ(u32_at(avi, chunk + 4), 609U * 590U);
    for (int row = 0; row < 590; ++row)
      ASSERT_TRUE(std::equal(s.frame(f) + std::ptrdiff_t(row) * 609,
                             s.frame(f) + std::ptrdiff_t(row + 1) * 609,
                             avi.begin() + long(chunk + 8) + long(589 - row) * 609))
          << "frame " << f << ", row " << row;
  }
}

TEST(HeartwallSequence, FilesAreWritten) {
  const Sequence s = make_sequence(1, 5);
  const std::string dir = testing::TempDir();
  write_rodinia_avi(s, dir + "heartwall_test.avi");
  write_rodinia_input_txt(s, dir + "heartwall_input.txt");
  std::ifstream avi(dir + "heartwall_test.avi", std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(avi), {}};
  EXPECT_EQ(bytes, rodinia_avi(s));
  std::ifstream txt(dir + "heartwall_input.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(txt), {}), rodinia_input_txt(s));
  std::remove((dir + "heartwall_test.avi").c_str());
  std::remove((dir + "heartwall_input.txt").c_str());
  EXPECT_THROW(write_rodinia_avi(s, dir + "no-such-dir/x.avi"), UsageError);
}

}  // namespace
}  // namespace gpucmp::heartwall
