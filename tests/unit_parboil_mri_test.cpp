// Unit tests of the Parboil MRI workloads' host-side definitions (mriq,
// mrifhd): generated datasets, the validation rules against a reference in
// double, and the flop counts (no device needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "mri_dataset_checks.h"
#include "workloads/parboil/mri.h"

namespace gpucmp {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

// ---- mri: generated datasets --------------------------------------------------

TEST(ParboilMri, GenerateShapesAndRanges) {
  const mri::Dataset d = mri::generate(mri::Kind::q, 64, 4);
  EXPECT_EQ(d.numK, 64);
  EXPECT_EQ(d.numX, 64);
  for (const auto* v : {&d.kx, &d.ky, &d.kz, &d.phiR, &d.phiI}) EXPECT_EQ(v->size(), 64u);
  for (const auto* v : {&d.x, &d.y, &d.z}) EXPECT_EQ(v->size(), 64u);
  EXPECT_TRUE(d.dR.empty());
  EXPECT_TRUE(d.dI.empty());
  for (const auto* v : {&d.x, &d.y, &d.z}) {
    for (float f : *v) {
      EXPECT_GE(f, -0.5f);
      EXPECT_LT(f, 0.5f);
    }
  }
  for (const auto* v : {&d.kx, &d.ky, &d.kz}) {
    for (float f : *v) {
      EXPECT_GE(f, -2.0f);
      EXPECT_LT(f, 2.0f);
    }
  }
  for (const auto* v : {&d.phiR, &d.phiI}) {
    for (float f : *v) {
      EXPECT_GE(f, -1.0f);
      EXPECT_LT(f, 1.0f);
    }
  }
  // Voxels on the 4^3 grid, x fastest.
  EXPECT_EQ(d.x[1], -0.25f);
  EXPECT_EQ(d.y[4], -0.25f);
  EXPECT_EQ(d.z[16], -0.25f);
  EXPECT_EQ(d.x[63], 0.25f);
}

TEST(ParboilMri, GenerateIsDeterministic) {
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd}) {
    const mri::Dataset a = mri::generate(kind, 64, 4), b = mri::generate(kind, 64, 4);
    test::expect_same_dataset(a, b);
    EXPECT_EQ(a.origin, b.origin);
  }
  // Another numK is another set of k-values.
  const mri::Dataset a = mri::generate(mri::Kind::q, 64, 4), b = mri::generate(mri::Kind::q, 65, 4);
  EXPECT_FALSE(std::equal(a.kx.begin(), a.kx.end(), b.kx.begin()));
}

TEST(ParboilMri, GenerateFhdHasD) {
  const mri::Dataset d = mri::generate(mri::Kind::fhd, 64, 4);
  EXPECT_EQ(d.numX, 64);
  ASSERT_EQ(d.dR.size(), 64u);
  ASSERT_EQ(d.dI.size(), 64u);
  for (const auto* v : {&d.dR, &d.dI}) {
    for (float f : *v) {
      EXPECT_GE(f, -1.0f);
      EXPECT_LT(f, 1.0f);
    }
  }
  EXPECT_STREQ(mri::workload_name(mri::Kind::q), "mriq");
  EXPECT_STREQ(mri::workload_name(mri::Kind::fhd), "mrifhd");
}

// ---- mri: validation -----------------------------------------------------------

// Q or FHD of every voxel in double from the float inputs.
std::pair<std::vector<double>, std::vector<double>> mri_reference(const mri::Dataset& d,
                                                                  mri::Kind kind) {
  std::vector<double> re(std::size_t(d.numX), 0.0), im(std::size_t(d.numX), 0.0);
  for (std::size_t i = 0; i < std::size_t(d.numX); ++i) {
    for (std::size_t k = 0; k < std::size_t(d.numK); ++k) {
      const double arg =
          kTwoPi * (double(d.kx[k]) * d.x[i] + double(d.ky[k]) * d.y[i] + double(d.kz[k]) * d.z[i]);
      const double c = std::cos(arg), s = std::sin(arg);
      const double pr = d.phiR[k], pi = d.phiI[k];
      if (kind == mri::Kind::q) {
        const double mag = pr * pr + pi * pi;
        re[i] += mag * c;
        im[i] += mag * s;
      } else {
        const double dr = d.dR[k], di = d.dI[k];
        const double rR = pr * dr + pi * di, rI = pr * di - pi * dr;
        re[i] += rR * c - rI * s;
        im[i] += rI * c + rR * s;
      }
    }
  }
  return {re, im};
}

class ParboilMriValidate : public ::testing::TestWithParam<mri::Kind> {};

TEST_P(ParboilMriValidate, ToleranceRules) {
  const mri::Kind kind = GetParam();
  mri::Problem p;
  p.kind = kind;
  p.data = mri::generate(kind, 8, 2);
  ASSERT_EQ(p.data.numX, 8);
  const auto [re, im] = mri_reference(p.data, kind);
  p.out_r.assign(re.begin(), re.end());
  p.out_i.assign(im.begin(), im.end());

  for (bool fast : {false, true}) {
    const Validation v = mri::validate(p, fast);
    EXPECT_TRUE(v.ok) << v.describe();
    EXPECT_EQ(v.checked, 16u);
    EXPECT_DOUBLE_EQ(v.tolerance, fast ? 2e-3 : 1e-4);
    EXPECT_DOUBLE_EQ(v.tolerance, mri::tolerance(fast));
    EXPECT_LT(v.max_rel_err, 1e-6);
  }

  // The smallest value: its error is measured against max|ref|.
  double max_ref = 0, min_ref = INFINITY;
  std::size_t at = 0;
  bool imag = false;
  for (std::size_t i = 0; i < 8; ++i) {
    max_ref = std::max({max_ref, std::fabs(re[i]), std::fabs(im[i])});
    if (std::fabs(re[i]) < min_ref) min_ref = std::fabs(re[i]), at = i, imag = false;
    if (std::fabs(im[i]) < min_ref) min_ref = std::fabs(im[i]), at = i, imag = true;
  }
  ASSERT_GT(max_ref, 0.0);
  const double want_err = 1e-3 * max_ref / std::max(max_ref, 20 * min_ref);
  ASSERT_GT(want_err, 1e-4) << "the smallest |ref| is not small enough for this test";
  const double ref_at = imag ? im[at] : re[at];
  (imag ? p.out_i : p.out_r)[at] = float(ref_at + 1e-3 * max_ref);

  Validation v = mri::validate(p, false);
  EXPECT_FALSE(v.ok) << v.describe();
  EXPECT_NEAR(v.max_rel_err, want_err, 1e-6);
  const std::string where = std::string(imag ? "imag" : "real") + "[" + std::to_string(at) + "]";
  EXPECT_NE(v.where.find(where), std::string::npos) << v.where;
  v = mri::validate(p, true);
  EXPECT_TRUE(v.ok) << v.describe();
  EXPECT_NEAR(v.max_rel_err, want_err, 1e-6);

  // The largest value may be 20 t |ref| off: 1e-3 relative passes precise.
  (imag ? p.out_i : p.out_r)[at] = float(ref_at);
  std::size_t big = 0;
  bool big_imag = false;
  for (std::size_t i = 0; i < 8; ++i) {
    if (std::fabs(re[i]) == max_ref) big = i, big_imag = false;
    if (std::fabs(im[i]) == max_ref) big = i, big_imag = true;
  }
  const double ref_big = big_imag ? im[big] : re[big];
  (big_imag ? p.out_i : p.out_r)[big] = float(ref_big * (1 + 1e-3));
  v = mri::validate(p, false);
  EXPECT_TRUE(v.ok) << v.describe();
  EXPECT_NEAR(v.max_rel_err, 1e-3 / 20, 1e-6);
  (big_imag ? p.out_i : p.out_r)[big] = float(ref_big);

  // NaN fails, fast or not.
  p.out_i[3] = std::numeric_limits<float>::quiet_NaN();
  for (bool fast : {false, true}) {
    v = mri::validate(p, fast);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.where.find("imag[3]"), std::string::npos) << v.where;
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, ParboilMriValidate, ::testing::Values(mri::Kind::q, mri::Kind::fhd),
                         [](const ::testing::TestParamInfo<mri::Kind>& info) {
                           return std::string(mri::workload_name(info.param));
                         });

TEST(ParboilMri, Flops) {
  EXPECT_EQ(mri::flops(mri::Kind::q, 2, 3), 12 * 6 + 3 * 2);
  EXPECT_EQ(mri::flops(mri::Kind::fhd, 2, 3), 16 * 6 + 6 * 2);
  EXPECT_EQ(mri::flops(mri::Kind::q, 3072, 32768), 12.0 * 3072 * 32768 + 3.0 * 3072);
}

}  // namespace
}  // namespace gpucmp
