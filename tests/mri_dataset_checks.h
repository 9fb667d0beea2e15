// A check shared by the MRI unit tests: two datasets hold the same values.
#pragma once
#include <gtest/gtest.h>

#include "workloads/parboil/mri.h"

namespace gpucmp::test {

// Every field of `a` equals `b`'s (the sizes, the k-space and voxel arrays).
inline void expect_same_dataset(const mri::Dataset& a, const mri::Dataset& b) {
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

}  // namespace gpucmp::test
