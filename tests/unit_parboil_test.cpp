// Unit tests of the Parboil workloads' host-side definitions (cp, mriq,
// mrifhd): inputs, references, validation rules, work counts and Parboil's
// binary MRI file formats (no device needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "errors.h"
#include "workloads/parboil/cp.h"
#include "workloads/parboil/mri.h"

namespace gpucmp {
namespace {

namespace fs = std::filesystem;

constexpr double kTwoPi = 6.283185307179586476925286766559;

// ---- cp ---------------------------------------------------------------------

// The potential at every lattice point, in double, from the float atoms.
std::vector<double> cp_reference(const cp::Problem& p) {
  const cp::Config& c = p.config;
  const double h = c.spacing;
  std::vector<double> ref(std::size_t(c.nx) * std::size_t(c.ny));
  for (int yi = 0; yi < c.ny; ++yi) {
    for (int xi = 0; xi < c.nx; ++xi) {
      double e = 0;
      for (int n = 0; n < c.atoms; ++n) {
        const float* a = &p.atoms[4 * std::size_t(n)];
        const double dx = h * xi - double(a[0]), dy = h * yi - double(a[1]);
        e += double(a[3]) / std::sqrt(dx * dx + dy * dy + double(a[2]));
      }
      ref[std::size_t(yi) * std::size_t(c.nx) + std::size_t(xi)] = e;
    }
  }
  return ref;
}

void fill_energy(cp::Problem& p, const std::vector<double>& ref) {
  ASSERT_EQ(p.energy.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) p.energy[i] = float(ref[i]);
}

std::string cp_where(int y, int x) {
  return "energy[y=" + std::to_string(y) + ",x=" + std::to_string(x) + "]";
}

const cp::Config kTinyCp{16, 16, 3, 0.1f};

TEST(ParboilCp, MakeProblemIsDeterministic) {
  const cp::Config c{64, 32, 500, 0.1f};
  const cp::Problem p = cp::make_problem(c);
  const cp::Problem q = cp::make_problem(c);
  EXPECT_FALSE(p.config != c);
  ASSERT_EQ(p.atoms.size(), 4u * 500u);
  EXPECT_EQ(p.atoms, q.atoms);
  ASSERT_EQ(p.energy.size(), 64u * 32u);
  EXPECT_TRUE(std::all_of(p.energy.begin(), p.energy.end(), [](float e) { return e == 0.0f; }));
  // Another atom count is another set of atoms.
  const cp::Problem r = cp::make_problem(cp::Config{64, 32, 501, 0.1f});
  EXPECT_FALSE(std::equal(p.atoms.begin(), p.atoms.end(), r.atoms.begin()));
}

TEST(ParboilCp, AtomsAreFloat4InTheBox) {
  const cp::Config c{64, 32, 2000, 0.1f};
  const cp::Problem p = cp::make_problem(c);
  ASSERT_EQ(p.atoms.size(), 4u * std::size_t(c.atoms));
  const float xmax = float(c.nx) * c.spacing, ymax = float(c.ny) * c.spacing;
  const double dz2max = std::pow(10.05 * double(c.spacing), 2) * (1 + 1e-5);
  int negative = 0, positive = 0;
  float lo_x = xmax, hi_x = 0, lo_y = ymax, hi_y = 0;
  for (int n = 0; n < c.atoms; ++n) {
    const float* a = &p.atoms[4 * std::size_t(n)];
    SCOPED_TRACE("atom " + std::to_string(n));
    EXPECT_GE(a[0], 0.0f);
    EXPECT_LT(a[0], xmax);
    EXPECT_GE(a[1], 0.0f);
    EXPECT_LT(a[1], ymax);
    EXPECT_GE(a[2], 0.0f);
    EXPECT_LE(double(a[2]), dz2max);
    EXPECT_GE(a[3], -1.0f);
    EXPECT_LT(a[3], 1.0f);
    negative += a[3] < 0;
    positive += a[3] > 0;
    lo_x = std::min(lo_x, a[0]);
    hi_x = std::max(hi_x, a[0]);
    lo_y = std::min(lo_y, a[1]);
    hi_y = std::max(hi_y, a[1]);
  }
  // Spread over the box, charges of both signs.
  EXPECT_LT(lo_x, 0.05f * xmax);
  EXPECT_GT(hi_x, 0.95f * xmax);
  EXPECT_LT(lo_y, 0.05f * ymax);
  EXPECT_GT(hi_y, 0.95f * ymax);
  EXPECT_GT(negative, c.atoms / 3);
  EXPECT_GT(positive, c.atoms / 3);
}

TEST(ParboilCp, ValidateAcceptsTheReference) {
  cp::Problem p = cp::make_problem(kTinyCp);
  fill_energy(p, cp_reference(p));
  const Validation v = cp::validate(p);
  EXPECT_TRUE(v.ok) << v.describe();
  EXPECT_EQ(v.checked, 16u * 16u);
  EXPECT_DOUBLE_EQ(v.tolerance, 0.005);
  EXPECT_LT(v.max_rel_err, 1e-6);
}

TEST(ParboilCp, ValidateAbsoluteRuleBelowOne) {
  cp::Problem p = cp::make_problem(kTinyCp);
  // The 3 generated charges are all positive and put every lattice point over
  // 1 (1.06..4.2): scale them down to get potentials under 1.
  for (int n = 0; n < kTinyCp.atoms; ++n) p.atoms[4 * std::size_t(n) + 3] *= 0.1f;
  const std::vector<double> ref = cp_reference(p);
  // A point off the diagonal (so a swapped x/y shows) with |ref| < 1.
  int px = -1, py = -1;
  for (int y = 1; y < kTinyCp.ny && px < 0; ++y)
    for (int x = 1; x < kTinyCp.nx && px < 0; ++x)
      if (x != y && std::fabs(ref[std::size_t(y) * 16 + std::size_t(x)]) < 0.9) px = x, py = y;
  ASSERT_GE(px, 0) << "no lattice point with |ref| < 0.9";
  const std::size_t i = std::size_t(py) * 16 + std::size_t(px);

  fill_energy(p, ref);
  p.energy[i] = float(ref[i] + 0.004);  // 0.004 absolute: within 0.005
  Validation v = cp::validate(p);
  EXPECT_TRUE(v.ok) << v.describe();
  EXPECT_NEAR(v.max_rel_err, 0.004, 1e-6);

  p.energy[i] = float(ref[i] + 0.01);  // 0.01 absolute: fails
  v = cp::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_NEAR(v.max_rel_err, 0.01, 1e-6);
  EXPECT_NE(v.where.find(cp_where(py, px)), std::string::npos) << v.where;
}

TEST(ParboilCp, ValidateRelativeRuleAboveOne) {
  cp::Problem p = cp::make_problem(kTinyCp);
  // Put atom 0 a distance h = 0.1 right below lattice point (x=5, y=7): its
  // term there alone is 1 / 0.1 = 10.
  float* a = &p.atoms[0];
  a[0] = 0.5f;
  a[1] = 0.7f;
  a[2] = 0.01f;
  a[3] = 1.0f;
  const std::vector<double> ref = cp_reference(p);
  const std::size_t i = 7 * 16 + 5;
  ASSERT_GT(std::fabs(ref[i]), 5.0);

  fill_energy(p, ref);
  // 0.4% relative is far over 0.005 absolute but within 0.5% relative.
  p.energy[i] = float(ref[i] * 1.004);
  ASSERT_GT(std::fabs(double(p.energy[i]) - ref[i]), 0.005);
  Validation v = cp::validate(p);
  EXPECT_TRUE(v.ok) << v.describe();
  EXPECT_NEAR(v.max_rel_err, 0.004, 1e-6);
  EXPECT_NE(v.where.find(cp_where(7, 5)), std::string::npos) << v.where;

  p.energy[i] = float(ref[i] * 1.006);  // 0.6% relative: fails
  v = cp::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_NEAR(v.max_rel_err, 0.006, 1e-6);
  EXPECT_NE(v.where.find(cp_where(7, 5)), std::string::npos) << v.where;
}

TEST(ParboilCp, ValidateFailsOnNaN) {
  cp::Problem p = cp::make_problem(kTinyCp);
  fill_energy(p, cp_reference(p));
  p.energy[2 * 16 + 9] = std::numeric_limits<float>::quiet_NaN();
  const Validation v = cp::validate(p);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find(cp_where(2, 9)), std::string::npos) << v.where;
}

TEST(ParboilCp, ValidateSamplesLargeProblems) {
  // All points while nx * ny * atoms <= 2^26, a sample of 1024 beyond.
  cp::Problem p = cp::make_problem(cp::Config{128, 128, 4096, 0.1f});
  EXPECT_EQ(cp::validate(p).checked, 128u * 128u);
  p = cp::make_problem(cp::Config{128, 128, 4097, 0.1f});
  fill_energy(p, cp_reference(p));
  const Validation v = cp::validate(p);
  EXPECT_EQ(v.checked, 1024u);
  EXPECT_TRUE(v.ok) << v.describe();
}

TEST(ParboilCp, WorkCounts) {
  EXPECT_EQ(cp::interactions(cp::Config{512, 512, 40000}), 512 * 512 * 40000.0);
  EXPECT_EQ(cp::interactions(cp::Config{128, 256, 3, 0.2f}), 128 * 256 * 3.0);
  EXPECT_EQ(cp::kFlopPerInteraction, 7.0);
}

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
    EXPECT_EQ(a.kx, b.kx);
    EXPECT_EQ(a.ky, b.ky);
    EXPECT_EQ(a.kz, b.kz);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.y, b.y);
    EXPECT_EQ(a.z, b.z);
    EXPECT_EQ(a.phiR, b.phiR);
    EXPECT_EQ(a.phiI, b.phiI);
    EXPECT_EQ(a.dR, b.dR);
    EXPECT_EQ(a.dI, b.dI);
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

// ---- mri: Parboil's files -------------------------------------------------------

class ParboilMriFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() /
           ("gpucmp_parboil_" + test + "_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static void append_bytes(const std::string& p, std::size_t n) {
    std::ofstream out(p, std::ios::binary | std::ios::app);
    const std::vector<char> zeros(n, 0);
    out.write(zeros.data(), std::streamsize(n));
    ASSERT_TRUE(out.good());
  }
  static void write_ints(const std::string& p, std::initializer_list<std::int32_t> v) {
    std::ofstream out(p, std::ios::binary);
    for (std::int32_t i : v) out.write(reinterpret_cast<const char*>(&i), sizeof i);
    ASSERT_TRUE(out.good());
  }

  fs::path dir_;
};

void expect_same(const mri::Dataset& a, const mri::Dataset& b) {
  EXPECT_EQ(a.numK, b.numK);
  EXPECT_EQ(a.numX, b.numX);
  EXPECT_EQ(a.kx, b.kx);
  EXPECT_EQ(a.ky, b.ky);
  EXPECT_EQ(a.kz, b.kz);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
  EXPECT_EQ(a.z, b.z);
  EXPECT_EQ(a.phiR, b.phiR);
  EXPECT_EQ(a.phiI, b.phiI);
  EXPECT_EQ(a.dR, b.dR);
  EXPECT_EQ(a.dI, b.dI);
}

// `f` must throw UsageError whose message contains every one of `parts`.
void expect_usage_error(const std::function<void()>& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    for (const std::string& part : parts)
      EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a UsageError: " << e.what();
  }
}

// Byte offset of field `index` in Parboil's input layout (numK, numX, kx, ky,
// kz, x, y, z, phiR, phiI, dR, dI).
std::int64_t field_offset(const mri::Dataset& d, int index) {
  const std::int64_t k = 4 * std::int64_t(d.numK), x = 4 * std::int64_t(d.numX);
  const std::int64_t sizes[] = {k, k, k, x, x, x, k, k, k, k};
  std::int64_t at = 8;
  for (int i = 0; i < index; ++i) at += sizes[i];
  return at;
}
constexpr int kFieldY = 4, kFieldDR = 8;

TEST_F(ParboilMriFiles, InputRoundTrip) {
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd}) {
    SCOPED_TRACE(mri::workload_name(kind));
    const mri::Dataset d = mri::generate(kind, 48, 4);
    const std::string f = path(std::string(mri::workload_name(kind)) + ".bin");
    mri::write_parboil_input(f, d, kind);
    const std::int64_t want_size = field_offset(d, kind == mri::Kind::q ? kFieldDR : 10);
    EXPECT_EQ(std::int64_t(fs::file_size(f)), want_size);
    const mri::Dataset r = mri::read_parboil_input(f, kind);
    expect_same(d, r);
    EXPECT_EQ(r.origin, f);
  }
}

TEST_F(ParboilMriFiles, OutputRoundTrip) {
  const std::vector<float> re = {1.5f, -2.25f, 0.0f, 3e7f, -1e-30f};
  const std::vector<float> im = {-0.5f, 4.0f, 1e-3f, -7.0f, 2.0f};
  const std::string f = path("out.bin");
  mri::write_parboil_output(f, re, im);
  EXPECT_EQ(fs::file_size(f), 4u + 2 * re.size() * 4u);
  const auto [r, i] = mri::read_parboil_output(f);
  EXPECT_EQ(r, re);
  EXPECT_EQ(i, im);
}

TEST_F(ParboilMriFiles, TruncatedInsideAnArray) {
  const mri::Dataset d = mri::generate(mri::Kind::q, 16, 4);
  const std::string f = path("trunc.bin");
  mri::write_parboil_input(f, d, mri::Kind::q);
  // Cut in the middle of 'y'.
  fs::resize_file(f, std::uintmax_t(field_offset(d, kFieldY) + 2 * std::int64_t(d.numX)));
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::q); },
                     {f, "truncated in field 'y'"});
}

TEST_F(ParboilMriFiles, TruncatedHeader) {
  const std::string f = path("hdr.bin");
  {
    std::ofstream out(f, std::ios::binary);
    out.write("\x10\0\0", 3);
  }
  ASSERT_EQ(fs::file_size(f), 3u);
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::q); }, {f, "truncated", "numK"});
  // A whole numK but no numX.
  write_ints(f, {16});
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::fhd); }, {f, "truncated", "numX"});
}

TEST_F(ParboilMriFiles, Oversized) {
  const mri::Dataset d = mri::generate(mri::Kind::fhd, 16, 2);
  const std::string f = path("big.bin");
  mri::write_parboil_input(f, d, mri::Kind::fhd);
  append_bytes(f, 4);
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::fhd); }, {f, "oversized"});
}

TEST_F(ParboilMriFiles, BadCounts) {
  const std::string f = path("count.bin");
  write_ints(f, {-1, 8});
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::q); }, {f, "numK"});
  write_ints(f, {0, 8});
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::q); }, {f, "numK"});
  write_ints(f, {8, 0});
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::fhd); }, {f, "numX"});
  write_ints(f, {0});
  expect_usage_error([&] { mri::read_parboil_output(f); }, {f, "numX"});
}

TEST_F(ParboilMriFiles, NonFiniteValue) {
  mri::Dataset d = mri::generate(mri::Kind::q, 16, 2);
  d.phiR[5] = std::numeric_limits<float>::quiet_NaN();
  const std::string f = path("nan.bin");
  mri::write_parboil_input(f, d, mri::Kind::q);
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::q); }, {f, "phiR", "[5]"});

  mri::write_parboil_output(f, {1.0f, 2.0f}, {INFINITY, 0.0f});
  expect_usage_error([&] { mri::read_parboil_output(f); }, {f, "imaginary"});
}

TEST_F(ParboilMriFiles, MissingFile) {
  const std::string f = path("does_not_exist.bin");
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::q); }, {f, "cannot open"});
  expect_usage_error([&] { mri::read_parboil_output(f); }, {f, "cannot open"});
  const std::string g = path("no_such_dir/out.bin");
  expect_usage_error([&] { mri::write_parboil_output(g, {1.0f}, {2.0f}); }, {g, "cannot open"});
}

TEST_F(ParboilMriFiles, WrongKind) {
  const mri::Dataset fhd = mri::generate(mri::Kind::fhd, 16, 2);
  const std::string f = path("fhd.bin");
  mri::write_parboil_input(f, fhd, mri::Kind::fhd);
  expect_usage_error([&] { mri::read_parboil_input(f, mri::Kind::q); }, {f, "oversized", "mriq"});

  const mri::Dataset q = mri::generate(mri::Kind::q, 16, 2);
  const std::string g = path("q.bin");
  mri::write_parboil_input(g, q, mri::Kind::q);
  expect_usage_error([&] { mri::read_parboil_input(g, mri::Kind::fhd); },
                     {g, "truncated in field 'dR'", "mrifhd"});
}

TEST_F(ParboilMriFiles, TruncatedOutput) {
  const std::string f = path("out.bin");
  mri::write_parboil_output(f, {1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f});
  fs::resize_file(f, 4 + 3 * 4 + 4);
  expect_usage_error([&] { mri::read_parboil_output(f); }, {f, "truncated in field 'imaginary'"});
}

// A write that fails (here: a full device) must be reported, not leave a
// short file behind silently. Small files (under the ~8 KiB stream buffer)
// are only written when the Writer's ofstream is destroyed, and that final
// flush's failure is not checked.
TEST_F(ParboilMriFiles, WriteFailureIsReported) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  expect_usage_error(
      [] {
        mri::write_parboil_output("/dev/full", {1.0f, 2.0f}, {3.0f, 4.0f});
      },
      {"/dev/full", "write failed"});
}

}  // namespace
}  // namespace gpucmp
