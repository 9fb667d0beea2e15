// Device copies of one matrixMul problem (shared by the tiled and CLBlast runners).
#pragma once
#include "handles.h"
#include "workloads/sdk/matrixmul.h"

namespace gpucmp::opencl {

struct MatrixBuffers {
  explicit MatrixBuffers(matrixmul::Problem& p) : problem(p) {}
  void upload();    // allocates A, B, C and writes A and B
  void download();  // reads C into problem.c

  matrixmul::Problem& problem;
  Buffer a, b, c;
};

}  // namespace gpucmp::opencl
