// Unit tests of the Parboil cp workload's host-side definition: its generated
// atoms, the reference potential, the validation rules and the work counts
// (no device needed). mriq and mrifhd: unit_parboil_mri_test.cpp and, for
// Parboil's binary MRI files, unit_parboil_mri_files_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "errors.h"
#include "workloads/parboil/cp.h"

namespace gpucmp {
namespace {

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

// ---- cp by value ------------------------------------------------------------

// The chunk of a by-value launch: the largest power of two of 16-byte atoms
// that fits beside the other arguments, at most 2048.
TEST(ParboilCpByValue, ChunkFromTheParameterLimit) {
  EXPECT_EQ(cp::kByValueOtherBytes, 16);
  EXPECT_EQ(cp::byvalue_atoms(4352, 16), 256) << "a 4352-byte limit: 271 fit, 256 taken";
  EXPECT_EQ(cp::byvalue_atoms(32764, 16), 1024) << "CUDA's limit: the CUDA control's chunk";
  EXPECT_EQ(cp::byvalue_atoms(1024, 16), 32) << "OpenCL's minimum limit";
  EXPECT_EQ(cp::byvalue_atoms(4112, 16), 256) << "exactly 256 atoms";
  EXPECT_EQ(cp::byvalue_atoms(4111, 16), 128);
  EXPECT_EQ(cp::byvalue_atoms(32764, 16), 1024) << "CUDA 12.1's limit";
  EXPECT_EQ(cp::byvalue_atoms(1LL << 30, 16), 2048) << "capped";
  EXPECT_EQ(cp::byvalue_atoms(32, 16), 1);
  EXPECT_EQ(cp::byvalue_atoms(31, 16), 0);
  EXPECT_EQ(cp::byvalue_atoms(16, 16), 0);
  EXPECT_EQ(cp::byvalue_atoms(0, 16), 0);
  EXPECT_EQ(cp::byvalue_atoms(4352, 4352 - 64), 4);
}

TEST(ParboilCpByValue, ChunkOfADevice) {
  DeviceInfo dev;
  EXPECT_EQ(cp::byvalue_atoms(dev), 1024) << "no limit stated (CUDA)";
  dev.max_parameter_bytes = 4352;
  EXPECT_EQ(cp::byvalue_atoms(dev), 256);
  dev.max_parameter_bytes = 1024;
  EXPECT_EQ(cp::byvalue_atoms(dev), 32);
  dev.max_parameter_bytes = 24;
  EXPECT_THROW(cp::byvalue_atoms(dev), Unavailable);
}

TEST(ParboilCpByValue, LaunchesAndCommands) {
  DeviceInfo dev;
  dev.max_parameter_bytes = 4352;
  const cp::Config c{512, 512, 40000};
  const cp::Variant& byvalue = cp::variant("unrollx8-fast-byvalue");
  EXPECT_EQ(cp::atoms_per_launch(byvalue, dev), 256);
  EXPECT_EQ(cp::commands_per_launch(c, byvalue, dev), 1 + 157) << "ceil(40000 / 256) kernels";
  const cp::Variant& constant = cp::variant("unrollx8-fast");
  EXPECT_EQ(cp::atoms_per_launch(constant, dev), cp::kAtomsPerChunk);
  EXPECT_EQ(cp::commands_per_launch(c, constant, dev), 1 + 2 * 10) << "a copy and a kernel";
  EXPECT_EQ(cp::commands_per_launch(c, cp::variant("unrollx8-prefetch"), dev), 1 + 2 * 10);
  dev.max_parameter_bytes = 1024;
  EXPECT_EQ(cp::commands_per_launch(cp::Config{128, 128, 2000}, byvalue, dev), 1 + 63);
}

TEST(ParboilCpByValue, ChunksArePaddedWithZeroAtoms) {
  const cp::Problem p = cp::make_problem(cp::Config{128, 128, 300});
  const std::vector<float> chunks = cp::byvalue_chunks(p, 256);
  ASSERT_EQ(chunks.size(), 2u * 256 * 4);
  EXPECT_TRUE(std::equal(p.atoms.begin(), p.atoms.end(), chunks.begin()));
  EXPECT_TRUE(std::all_of(chunks.begin() + std::ptrdiff_t(300 * 4), chunks.end(),
                          [](float f) { return f == 0; }));
  EXPECT_EQ(cp::byvalue_chunks(p, 300).size(), 300u * 4) << "a whole chunk: no padding";
}

// The forms are shared variants, one per math mode of unrollx8, named
// <math variant>-<form>.
TEST(ParboilCpByValue, FormsOfEachMathMode) {
  for (const char* math : {"unrollx8", "unrollx8-ieee", "unrollx8-fast"}) {
    const cp::Variant& as_written = cp::variant(math);
    for (auto [suffix, form] :
         {std::pair{"-byvalue", cp::Form::byvalue}, {"-prefetch", cp::Form::prefetch}}) {
      const cp::Variant& v = cp::variant(std::string(math) + suffix);
      EXPECT_EQ(v.form, form) << v.name;
      EXPECT_EQ(v.math, as_written.math) << v.name;
      EXPECT_EQ(v.kernel, cp::Kernel::unrollx8) << v.name;
    }
    EXPECT_EQ(as_written.form, cp::Form::constant);
  }
}

}  // namespace
}  // namespace gpucmp
