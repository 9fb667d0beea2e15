// Unit tests of the 2-D work-size workloads' host side (mmnaive, bilinear):
// references against hand-computed values, the exactness the bilinear
// tolerance rests on, validation against float models of the kernels (which
// must pass) and against broken outputs (which must fail), and the options'
// limits. No device needed.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "workloads/worksize/bilinear.h"
#include "workloads/worksize/mmnaive.h"

namespace gpucmp {
namespace {

// ---- mmnaive ----------------------------------------------------------------

// The kernel in float on the CPU: k ascending, a float accumulator, each step
// fused (one rounding) or not (the product rounded first).
void float_product(mmnaive::Problem& p, bool fused, int skip_k = -1) {
  const int n = p.n;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k) {
        if (k == skip_k) continue;
        const float a = p.a[std::size_t(i) * n + k], b = p.b[std::size_t(k) * n + j];
        if (fused) {
          sum = std::fma(a, b, sum);
        } else {
          volatile float prod = a * b;  // volatile: no contraction into an fma
          sum = sum + prod;
        }
      }
      p.c[std::size_t(i) * n + j] = sum;
    }
}

TEST(MmNaive, ReferenceMatchesHandComputedProduct) {
  mmnaive::Problem p;
  p.n = 2;
  p.a = {1, 2, 3, 4};
  p.b = {0.5f, -1, 0.25f, 2};
  mmnaive::compute_reference(p);
  EXPECT_EQ(p.ref, (std::vector<double>{1, 3, 2.5, 5}));
  EXPECT_EQ(p.abs_sum, (std::vector<double>{1, 5, 2.5, 11}));
}

TEST(MmNaive, InputsAreSeededAndInRange) {
  const auto p = mmnaive::make_problem(32), q = mmnaive::make_problem(32);
  EXPECT_EQ(p.a, q.a);
  EXPECT_EQ(p.b, q.b);
  EXPECT_NE(p.a, p.b);
  for (float x : p.a) EXPECT_TRUE(x >= -1 && x < 1);
  EXPECT_TRUE(p.checked.empty());
  EXPECT_EQ(p.ref.size(), 32u * 32u);
}

TEST(MmNaive, SampledReferenceOfLargeSizesIsTheDotProduct) {
  const auto p = mmnaive::make_problem(mmnaive::kFullCheckMaxN + 16);
  ASSERT_EQ(p.checked.size(), std::size_t(mmnaive::kSampledEntries));
  const auto n = std::size_t(p.n);
  for (std::size_t e = 0; e < 8; ++e) {
    const std::size_t i = p.checked[e] / n, j = p.checked[e] % n;
    double sum = 0;
    for (std::size_t k = 0; k < n; ++k) sum += double(p.a[i * n + k]) * p.b[k * n + j];
    EXPECT_DOUBLE_EQ(p.ref[e], sum);
  }
}

TEST(MmNaive, FloatKernelModelsPassFusedOrNot) {
  for (bool fused : {false, true}) {
    auto p = mmnaive::make_problem(128);
    float_product(p, fused);
    const Validation v = mmnaive::validate(p);
    EXPECT_TRUE(v.ok) << v.describe();
    EXPECT_GT(v.max_rel_err, 0);  // float rounding shows: the check is not vacuous
    EXPECT_EQ(v.checked, 128u * 128u);
  }
}

TEST(MmNaive, ValidationCatchesWrongEntries) {
  auto p = mmnaive::make_problem(64);
  float_product(p, true);
  ASSERT_TRUE(mmnaive::validate(p).ok);

  auto wrong = p;
  const std::size_t e = 5 * 64 + 7;
  wrong.c[e] += float(4 * mmnaive::tolerance(64) * p.abs_sum[e]);
  Validation v = mmnaive::validate(wrong);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("c[5,7]"), std::string::npos) << v.where;

  wrong = p;
  wrong.c[e] = NAN;
  EXPECT_FALSE(mmnaive::validate(wrong).ok);

  wrong = p;
  float_product(wrong, true, /*skip_k=*/63);  // a kernel that drops the last product
  EXPECT_FALSE(mmnaive::validate(wrong).ok);
}

TEST(MmNaive, CountsAndSizes) {
  EXPECT_DOUBLE_EQ(mmnaive::flops(1024), 2.0 * 1024 * 1024 * 1024);
  // gamma_n = n u / (1 - n u): 2^-14 / (1 - 2^-14) at n = 1024.
  EXPECT_DOUBLE_EQ(mmnaive::tolerance(1024), 1.0 / 16383.0);
  EXPECT_EQ(mmnaive::preset_sizes(SizePreset::quick), std::vector<int>{256});
  EXPECT_EQ(mmnaive::preset_sizes(SizePreset::standard), std::vector<int>{1024});
  EXPECT_EQ(mmnaive::preset_sizes(SizePreset::large), std::vector<int>{1024});
}

// ---- bilinear ---------------------------------------------------------------

// The kernel in float on the CPU, each blend fused or not; `no_x1` models a
// kernel that forgets the right neighbour.
void float_scale(bilinear::Problem& p, bool fused, bool no_x1 = false) {
  for (int y = 0; y < p.out_h; ++y)
    for (int x = 0; x < p.out_w; ++x) {
      const float sx = bilinear::source_coord(x, p.scale_x, p.in_w);
      const float sy = bilinear::source_coord(y, p.scale_y, p.in_h);
      const int x0 = int(std::floor(sx)), y0 = int(std::floor(sy));
      const int x1 = no_x1 ? x0 : std::min(x0 + 1, p.in_w - 1);
      const int y1 = std::min(y0 + 1, p.in_h - 1);
      const float fx = sx - float(x0), fy = sy - float(y0);
      const auto at = [&p](int r, int c) { return p.in[std::size_t(r) * p.in_w + c]; };
      const auto blend = [fused](float w0, float a, float w1, float b) {
        if (fused) return std::fma(w0, a, w1 * b);
        volatile float first = w0 * a, second = w1 * b;
        return first + second;
      };
      const float top = blend(1 - fx, at(y0, x0), fx, at(y0, x1));
      const float bottom = blend(1 - fx, at(y1, x0), fx, at(y1, x1));
      p.out[std::size_t(y) * p.out_w + x] = blend(1 - fy, top, fy, bottom);
    }
}

TEST(Bilinear, SourceCoordinatesOfPixelCentres) {
  // 4 input pixels to 8: centres at -0.25 (clamped), 0.25, 0.75, ..., 3.25 (clamped).
  const float want[8] = {0, 0.25f, 0.75f, 1.25f, 1.75f, 2.25f, 2.75f, 3};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(bilinear::source_coord(i, 0.5f, 4), want[i]) << i;
}

TEST(Bilinear, HalfScaleCoordinatesAreExactFusedOrNot) {
  // The claim the reference rests on: with scale 1/2 the float coordinate is
  // the exact i / 2 - 1/4, whether or not the device contracts it into an fma.
  const int in = bilinear::kMaxOut / 2;
  for (int i = 0; i < bilinear::kMaxOut; ++i) {
    const float fused = std::fma(float(i) + 0.5f, 0.5f, -0.5f);
    const double exact = i / 2.0 - 0.25;
    ASSERT_EQ(double(fused), exact) << i;
    ASSERT_EQ(double(bilinear::source_coord(i, 0.5f, in)), std::min(std::max(exact, 0.0), in - 1.0))
        << i;
  }
  EXPECT_EQ(bilinear::make_problem(1024).scale_x, 0.5f);
}

TEST(Bilinear, ReferenceMatchesHandComputedPixels) {
  bilinear::Problem p;
  p.in_w = p.in_h = 2;
  p.out_w = p.out_h = 4;
  p.scale_x = p.scale_y = 0.5f;
  p.in = {0, 1, 2, 3};
  EXPECT_DOUBLE_EQ(bilinear::reference_pixel(p, 0, 0), 0);
  EXPECT_DOUBLE_EQ(bilinear::reference_pixel(p, 3, 3), 3);     // clamped to the last pixel
  EXPECT_DOUBLE_EQ(bilinear::reference_pixel(p, 1, 2), 1.75);  // fx 1/4, fy 3/4
  EXPECT_DOUBLE_EQ(bilinear::reference_pixel(p, 2, 1), 1.25);  // fx 3/4, fy 1/4
  EXPECT_DOUBLE_EQ(bilinear::reference_pixel(p, 3, 0), 1);     // right edge: x0 = x1 = 1
}

TEST(Bilinear, InputsAreSeededAndInRange) {
  const auto p = bilinear::make_problem(256), q = bilinear::make_problem(256);
  EXPECT_EQ(p.in, q.in);
  EXPECT_EQ(p.in_w, 128);
  EXPECT_EQ(p.in.size(), 128u * 128u);
  EXPECT_EQ(p.out.size(), 256u * 256u);
  for (float v : p.in) EXPECT_TRUE(v >= 0 && v < 1);
}

TEST(Bilinear, FloatKernelModelsPassFusedOrNot) {
  for (bool fused : {false, true}) {
    auto p = bilinear::make_problem(128);
    float_scale(p, fused);
    const Validation v = bilinear::validate(p);
    EXPECT_TRUE(v.ok) << v.describe();
    EXPECT_GT(v.max_rel_err, 0);
    EXPECT_LE(v.max_rel_err, std::ldexp(1.0, -22));  // the header's bound, 4x inside 2^-20
  }
}

TEST(Bilinear, ValidationCatchesWrongPixels) {
  auto p = bilinear::make_problem(64);
  float_scale(p, true);
  ASSERT_TRUE(bilinear::validate(p).ok);

  auto wrong = p;
  wrong.out[9 * 64 + 3] += 4 * float(bilinear::tolerance());
  Validation v = bilinear::validate(wrong);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("out[9,3]"), std::string::npos) << v.where;

  wrong = p;
  float_scale(wrong, true, /*no_x1=*/true);
  EXPECT_FALSE(bilinear::validate(wrong).ok);
}

TEST(Bilinear, CountsIdealTrafficAndSizes) {
  EXPECT_DOUBLE_EQ(bilinear::counted_bytes(bilinear::make_problem(1024)),
                   4.0 * (1024 * 1024 + 512 * 512));
  EXPECT_EQ(bilinear::preset_sizes(SizePreset::quick), std::vector<int>{256});
  EXPECT_EQ(bilinear::preset_sizes(SizePreset::standard), std::vector<int>{1024});
}

// ---- options ----------------------------------------------------------------

// Parses `args` with the workload's options; returns the error text ("" if none).
std::string parse_error(Workload& w, std::vector<std::string> args) {
  CLI::App app;
  w.add_options(app);
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(WorksizeOptions, SizesAndShapesAreChecked) {
  const auto mm = mmnaive::make_workload();
  EXPECT_EQ(parse_error(*mm, {"--mmnaive-n", "16,1024"}), "");
  EXPECT_NE(parse_error(*mm, {"--mmnaive-n", "17"}).find("--mmnaive-n 17"), std::string::npos);
  EXPECT_NE(parse_error(*mm, {"--mmnaive-n", "8208"}), "");
  EXPECT_NE(parse_error(*mm, {"--mmnaive-n", "0"}), "");
  EXPECT_EQ(parse_error(*mm, {"--mmnaive-local", "32x8,driver,sweep"}), "");
  EXPECT_NE(parse_error(*mm, {"--mmnaive-local", "256"}), "");  // a 1-D shape
  const auto bl = bilinear::make_workload();
  EXPECT_EQ(parse_error(*bl, {"--bilinear-out", "16,16384"}), "");
  EXPECT_NE(parse_error(*bl, {"--bilinear-out", "24"}).find("--bilinear-out 24"),
            std::string::npos);
  EXPECT_NE(parse_error(*bl, {"--bilinear-out", "16400"}), "");
  EXPECT_NE(parse_error(*bl, {"--bilinear-local", "study"}), "");  // the 1-D rule
}

}  // namespace
}  // namespace gpucmp
