// Unit tests of the by-value chunks (harness/byvalue_chunk.h) and MRI's
// by-value form on the host (harness/workloads/parboil/mri_byvalue.h): the
// count of records a launch takes follows from the device's parameter limit
// (never a default where a device states one; a limit too small for one
// record is an error), CUDA's compiled-in chunks from NVIDIA's limit, the
// commands of a timed launch, and the records passed (per-k factors, padding).
// No device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "byvalue_chunk.h"
#include "errors.h"
#include "workloads/parboil/cp.h"
#include "workloads/parboil/mri.h"
#include "workloads/parboil/mri_byvalue.h"

namespace gpucmp {
namespace {

// ---- the shared rule ----------------------------------------------------------

TEST(ByValueChunk, RecordsThatFitBesideTheOtherArguments) {
  EXPECT_EQ(byvalue::records_fitting(4352, 48, 16, 1024), 269) << "(4352 - 48) / 16";
  EXPECT_EQ(byvalue::records_fitting(4352, 48, 20, 512), 215) << "(4352 - 48) / 20";
  EXPECT_EQ(byvalue::records_fitting(1024, 48, 16, 1024), 61);
  EXPECT_EQ(byvalue::records_fitting(1024, 48, 20, 512), 48);
  EXPECT_EQ(byvalue::records_fitting(48 + 16 * 7, 48, 16, 1024), 7) << "exactly 7";
  EXPECT_EQ(byvalue::records_fitting(48 + 16 * 7 - 1, 48, 16, 1024), 6);
  EXPECT_EQ(byvalue::records_fitting(1LL << 30, 48, 16, 1024), 1024) << "capped";
  EXPECT_EQ(byvalue::records_fitting(64, 48, 16, 1024), 1);
  EXPECT_EQ(byvalue::records_fitting(63, 48, 16, 1024), 0);
  EXPECT_EQ(byvalue::records_fitting(48, 48, 16, 1024), 0);
  EXPECT_EQ(byvalue::records_fitting(0, 48, 16, 1024), 0);
  EXPECT_EQ(byvalue::records_fitting(4352, 48, 0, 1024), 0) << "no record size";
}

TEST(ByValueChunk, PowerOfTwoFloor) {
  EXPECT_EQ(byvalue::power_of_two_floor(0), 0);
  EXPECT_EQ(byvalue::power_of_two_floor(-3), 0);
  EXPECT_EQ(byvalue::power_of_two_floor(1), 1);
  EXPECT_EQ(byvalue::power_of_two_floor(271), 256);
  EXPECT_EQ(byvalue::power_of_two_floor(256), 256);
  EXPECT_EQ(byvalue::power_of_two_floor(1 << 30), 1 << 30);
}

// A device's limit gives the count; no limit stated (CUDA) gives CUDA's; a
// limit too small for one record is Unavailable, naming the limit.
TEST(ByValueChunk, RecordsOnADevice) {
  const byvalue::Shape shape{"test by value", "record", 48, 16, 1024};
  DeviceInfo dev;
  EXPECT_EQ(byvalue::records_on(dev, shape), 1024) << "no limit stated: CUDA's 32764 bytes";
  for (const auto& [limit, want] : {std::pair{4352LL, 269}, {1024LL, 61}, {64LL, 1}}) {
    dev.max_parameter_bytes = limit;
    EXPECT_EQ(byvalue::records_on(dev, shape), want) << limit;
  }
  dev.max_parameter_bytes = 63;
  try {
    byvalue::records_on(dev, shape);
    FAIL() << "no error for a limit of 63 bytes";
  } catch (const Unavailable& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("test by value"), std::string::npos) << what;
    EXPECT_NE(what.find("63 bytes"), std::string::npos) << what;
    EXPECT_NE(what.find("CL_DEVICE_MAX_PARAMETER_SIZE"), std::string::npos) << what;
  }
}

// cp's chunk is the shared rule rounded down to a power of two: worked by
// hand from 16-byte atoms beside 16 bytes of other arguments, at most 2048.
TEST(ByValueChunk, CpTakesThePowerOfTwoOfTheSharedRule) {
  ASSERT_EQ(cp::kByValueOtherBytes, 16) << "the figures below assume 16 other bytes";
  const std::vector<std::pair<long long, int>> worked = {{32764, 1024},  // 2046 atoms fit
                                                         {4352, 256},    // 271 fit
                                                         {4111, 128},    // 255 fit
                                                         {1024, 32},     // 63 fit: OpenCL's minimum
                                                         {48, 2},        // 2 fit
                                                         {32, 1},        // exactly 1
                                                         {31, 0},        // not one
                                                         {1LL << 30, 2048}};
  for (const auto& [limit, atoms] : worked)
    EXPECT_EQ(cp::byvalue_atoms(limit, cp::kByValueOtherBytes), atoms) << limit;
}

// ---- MRI by value -------------------------------------------------------------

TEST(MriByValue, ChunkFromTheParameterLimit) {
  EXPECT_EQ(mri::kByValueOtherBytes, 48);
  EXPECT_EQ(mri::byvalue_k(mri::Kind::q, 4352), 269) << "a 4352-byte limit";
  EXPECT_EQ(mri::byvalue_k(mri::Kind::fhd, 4352), 215);
  EXPECT_EQ(mri::byvalue_k(mri::Kind::q, 1024), 61) << "OpenCL's minimum (PoCL's)";
  EXPECT_EQ(mri::byvalue_k(mri::Kind::fhd, 1024), 48);
  EXPECT_EQ(mri::byvalue_k(mri::Kind::q, 32764), mri::kTileQ) << "capped at the tile";
  EXPECT_EQ(mri::byvalue_k(mri::Kind::fhd, 32764), mri::kTileFH);
  EXPECT_EQ(mri::byvalue_k(mri::Kind::q, 63), 0);
  EXPECT_EQ(mri::byvalue_k(mri::Kind::fhd, 67), 0);
  EXPECT_EQ(mri::byvalue_k_cuda(mri::Kind::q), mri::kTileQ) << "CUDA's compiled-in chunk";
  EXPECT_EQ(mri::byvalue_k_cuda(mri::Kind::fhd), mri::kTileFH);
}

TEST(MriByValue, ChunkOfADevice) {
  DeviceInfo dev;
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd}) {
    dev.max_parameter_bytes = 0;
    EXPECT_EQ(mri::byvalue_k(kind, dev), mri::byvalue_k_cuda(kind)) << "no limit stated (CUDA)";
    dev.max_parameter_bytes = 1024;
    EXPECT_EQ(mri::byvalue_k(kind, dev), kind == mri::Kind::q ? 61 : 48);
    dev.max_parameter_bytes = 2000;
    EXPECT_EQ(mri::byvalue_k(kind, dev), kind == mri::Kind::q ? 122 : 97) << "not a power of two";
    dev.max_parameter_bytes = 60;
    EXPECT_THROW(mri::byvalue_k(kind, dev), Unavailable);
  }
}

TEST(MriByValue, LaunchesAndCommands) {
  DeviceInfo dev;
  dev.max_parameter_bytes = 4352;
  const mri::Variant& byvalue = mri::variant("precise-byvalue");
  const mri::Variant& constant = mri::variant("precise");
  // The two clears, then ceil(3072 / 269) = 12 (Q) or ceil(3072 / 215) = 15 kernels.
  EXPECT_EQ(mri::commands_per_launch(mri::Kind::q, 3072, byvalue, dev), 2 + 12);
  EXPECT_EQ(mri::commands_per_launch(mri::Kind::fhd, 3072, byvalue, dev), 2 + 15);
  // The per-k kernel, the two clears, then a copy and a kernel a tile.
  EXPECT_EQ(mri::commands_per_launch(mri::Kind::q, 3072, constant, dev), 3 + 2 * 3);
  EXPECT_EQ(mri::commands_per_launch(mri::Kind::fhd, 3072, constant, dev), 3 + 2 * 6);
  dev.max_parameter_bytes = 1024;
  EXPECT_EQ(mri::commands_per_launch(mri::Kind::q, 1031, mri::variant("fast-byvalue"), dev),
            2 + 17);
  dev.max_parameter_bytes = 40;
  EXPECT_THROW(mri::commands_per_launch(mri::Kind::q, 1031, byvalue, dev), Unavailable);
}

// The records carry the per-k factors of the per-k kernels, in float (each
// within 4e-7 of the factor computed in double, relative above 1: checked
// against the double arithmetic, not a restatement of the float code), and
// are padded with zero records to whole chunks.
TEST(MriByValue, RecordsHoldThePerKFactorsPaddedToWholeChunks) {
  const auto near = [](float got, double want) {
    EXPECT_NEAR(got, want, 4e-7 * std::max(1.0, std::abs(want))) << "factor " << want;
  };
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd}) {
    const mri::Dataset d = mri::generate(kind, 100, 2);
    const auto per = std::size_t(mri::record_floats(kind));
    const std::vector<float> r = mri::byvalue_records(d, kind, 48);
    ASSERT_EQ(r.size(), std::size_t(3 * 48) * per) << "ceil(100 / 48) chunks";
    for (std::size_t k = 0; k < 100; ++k) {
      SCOPED_TRACE(k);
      const float* rec = r.data() + k * per;
      EXPECT_EQ(rec[0], d.kx[k]);
      EXPECT_EQ(rec[1], d.ky[k]);
      EXPECT_EQ(rec[2], d.kz[k]);
      const double pr = d.phiR[k], pi = d.phiI[k];
      if (kind == mri::Kind::q) {
        near(rec[3], pr * pr + pi * pi);
      } else {
        const double dr = d.dR[k], di = d.dI[k];
        near(rec[3], pr * dr + pi * di);
        near(rec[4], pr * di - pi * dr);
      }
    }
    EXPECT_TRUE(std::all_of(r.begin() + std::ptrdiff_t(100 * per), r.end(),
                            [](float f) { return f == 0; }));
    EXPECT_EQ(mri::byvalue_records(d, kind, 100).size(), 100 * per) << "a whole chunk: no padding";
  }
}

// The as-written form's records: Kx, Ky, Kz of each k-value, the per-k
// factors left zero for the device's per-k kernel, no padding.
TEST(MriRecords, UnfactoredRecordsHoldTheCoordinatesOnly) {
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd}) {
    const mri::Dataset d = mri::generate(kind, 100, 2);
    const auto per = std::size_t(mri::record_floats(kind));
    const std::vector<float> r = mri::unfactored_records(d, kind);
    ASSERT_EQ(r.size(), 100 * per);
    for (std::size_t k = 0; k < 100; ++k) {
      SCOPED_TRACE(k);
      EXPECT_EQ(r[k * per + 0], d.kx[k]);
      EXPECT_EQ(r[k * per + 1], d.ky[k]);
      EXPECT_EQ(r[k * per + 2], d.kz[k]);
      for (std::size_t f = 3; f < per; ++f) EXPECT_EQ(r[k * per + f], 0.0f);
    }
  }
}

// The runners fill one buffer at every timed launch: whatever it held before
// (a larger chunk's records, NaN), the fill leaves exactly the fresh records.
TEST(MriByValue, FillingAgainLeavesTheSameRecords) {
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd}) {
    const mri::Dataset d = mri::generate(kind, 100, 2);
    const std::vector<float> fresh = mri::byvalue_records(d, kind, 48);
    std::vector<float> reused(4096, NAN);
    mri::fill_byvalue_records(d, kind, 48, reused);
    EXPECT_EQ(reused, fresh);
    mri::fill_byvalue_records(d, kind, 48, reused);
    EXPECT_EQ(reused, fresh) << "a second fill of the same buffer";
  }
}

// Each launch's slice, in order, the last one shorter; a chunk of < 1 record
// is refused, never a loop that does not end.
TEST(ByValueChunk, EachChunkOnce) {
  std::vector<std::pair<int, int>> seen;
  byvalue::for_each_chunk(10, 4, [&](int start, int count) { seen.emplace_back(start, count); });
  EXPECT_EQ(seen, (std::vector<std::pair<int, int>>{{0, 4}, {4, 4}, {8, 2}}));
  seen.clear();
  byvalue::for_each_chunk(8, 4, [&](int start, int count) { seen.emplace_back(start, count); });
  EXPECT_EQ(seen, (std::vector<std::pair<int, int>>{{0, 4}, {4, 4}}));
  seen.clear();
  byvalue::for_each_chunk(0, 4, [&](int start, int count) { seen.emplace_back(start, count); });
  EXPECT_TRUE(seen.empty());
  EXPECT_THROW(byvalue::for_each_chunk(10, 0, [](int, int) {}), std::logic_error);
}

// The forms are shared variants, one per math mode, named <math>-byvalue, with
// the as-written loop.
TEST(MriByValue, FormsOfEachMathMode) {
  for (const char* math : {"precise", "fast"}) {
    const mri::Variant& as_written = mri::variant(math);
    const mri::Variant& v = mri::variant(std::string(math) + "-byvalue");
    EXPECT_EQ(v.from, mri::KFrom::byvalue) << v.name;
    EXPECT_EQ(v.fast_math, as_written.fast_math) << v.name;
    EXPECT_EQ(v.loop, mri::KLoop::tile_and_count) << v.name;
    EXPECT_EQ(as_written.from, mri::KFrom::constant);
  }
  for (const mri::Variant& v : mri::variants())
    EXPECT_EQ(v.from == mri::KFrom::byvalue, v.name.find("-byvalue") != std::string::npos)
        << v.name;
}

}  // namespace
}  // namespace gpucmp
