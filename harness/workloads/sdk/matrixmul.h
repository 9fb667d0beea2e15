// matrixMul: C = A x B, square n x n, row-major float. The CUDA SDK tiled
// shared-memory algorithm (tile 16 and 32), plus vendor BLAS reference rows.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../runner.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"

namespace gpucmp::matrixmul {

struct Problem {
  int n = 0;
  std::vector<float> a, b;  // inputs, row-major n x n, uniform in [-1, 1)
  std::vector<float> c;     // the device's result is downloaded here
};

// Seeded: the same n gives the same A and B everywhere.
Problem make_problem(int n);

// 2 n^3 flop per multiplication.
double flops(int n);

// Sizes of a preset: quick {256, 512}, standard {1024 .. 8192}, large adds 16384.
std::vector<int> preset_sizes(SizePreset size);

// Error of one entry: |c_ij - ref_ij| / sum_k |a_ik b_kj| with the reference in
// double. Tolerance: n * 2^-24, the worst-case bound of an n-term float dot
// product (gamma_n), which any correct summation order meets. Entries are all
// checked for n <= 512; above, a seeded sample of 4096 entries.
Validation validate(const Problem& p);
double tolerance(int n);
constexpr int kFullCheckMaxN = 512;
constexpr int kSampledEntries = 4096;

// The tiled kernels both APIs build, one list for the two runners and the
// OpenCL program table: the thread-block edge and the alignment in bytes of
// the two shared (__shared__ / __local) tiles, 0 for the element type's own
// (4 bytes). "-aligned": 16 bytes, so that the compilers may read a tile row
// with 128-bit vector loads (LDS.128); the kernel is otherwise the same.
// Library rows (cuBLAS, CLBlast) are variants of one API with tile 0.
struct Variant {
  std::string name;  // "tile16", "tile32-aligned", "cublas"
  int tile = 0;
  int tile_align = 0;
};
const std::vector<Variant>& tiled_kernels();

// matrixMul's runners (runner_table.h): tiled_kernels() are shared by both
// APIs; each adds its vendor library and its own variants.
using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::matrixmul
