// Unit tests of Parboil's binary MRI file formats (mriq, mrifhd input and
// output): round trips, and each malformed or unreadable file rejected with a
// UsageError that names the file and the field (no device needed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "errors.h"
#include "mri_dataset_checks.h"
#include "workloads/parboil/mri.h"

namespace gpucmp {
namespace {

namespace fs = std::filesystem;

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
    test::expect_same_dataset(d, r);
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
