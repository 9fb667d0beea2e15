// Unit tests of output_digest (harness/split_io.h), the hash by which runs
// over one and two GPUs are compared bit for bit: the same bytes give the
// same digest however they are cut into rectangles, and any changed byte,
// and any extra zero byte, changes it. No device needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "split_io.h"

namespace gpucmp {
namespace {

// A grid of 3-float rows (12 bytes: words cross the rows' ends).
std::vector<float> grid(long long rows) {
  std::vector<float> v(std::size_t(rows) * 3);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i) * 0.37f - 5.0f;
  return v;
}

PartTransfer rows_of(std::vector<float>& v, long long y, long long h, bool output = true) {
  return {host_array(v, 3), Rect{0, y, 3, h}, output};
}

TEST(OutputDigest, TheSameBytesCutDifferentlyGiveTheSameDigest) {
  std::vector<float> v = grid(11);
  const double whole = output_digest({rows_of(v, 0, 11)});
  EXPECT_EQ(output_digest({rows_of(v, 0, 5), rows_of(v, 5, 6)}), whole);
  EXPECT_EQ(output_digest({rows_of(v, 0, 1), rows_of(v, 1, 3), rows_of(v, 4, 7)}), whole);
  // Inputs do not count.
  EXPECT_EQ(output_digest({rows_of(v, 0, 11), rows_of(v, 0, 4, false)}), whole);
  EXPECT_LT(whole, double(std::uint64_t(1) << 52));
  EXPECT_GE(whole, 0.0);
}

TEST(OutputDigest, AnyChangedByteChangesTheDigest) {
  std::vector<float> v = grid(7);
  const double before = output_digest({rows_of(v, 0, 7)});
  auto* bytes = reinterpret_cast<unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(float); ++i) {
    bytes[i] ^= 0x10;
    EXPECT_NE(output_digest({rows_of(v, 0, 7)}), before) << "byte " << i;
    bytes[i] ^= 0x10;
  }
  EXPECT_EQ(output_digest({rows_of(v, 0, 7)}), before);
}

TEST(OutputDigest, RowsInAnotherOrderOrOneMoreZeroRowDiffer) {
  std::vector<float> v = grid(4);
  const double in_order = output_digest({rows_of(v, 0, 2), rows_of(v, 2, 2)});
  EXPECT_NE(output_digest({rows_of(v, 2, 2), rows_of(v, 0, 2)}), in_order);
  std::vector<float> zeros(9, 0.0f), more_zeros(12, 0.0f);  // 3 and 4 rows
  EXPECT_NE(output_digest({rows_of(zeros, 0, 3)}), output_digest({rows_of(more_zeros, 0, 4)}));
}

}  // namespace
}  // namespace gpucmp
