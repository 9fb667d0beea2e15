// reduce: the reductions of the AGPU model (Nakano et al., Hiroshima; issue
// 17), one array of n 32-bit words summed by three algorithms with the same
// block of kBlock threads, both APIs, plus CUB's DeviceReduce on CUDA:
//   tree       one element per thread, a shared-memory tree per block, one
//              partial per block; passes until one value is left
//              (time O(n log b / p)); keeps the order: any associative operator
//   cascading  a grid of grid_blocks() blocks, each thread summing a strided
//              share of the array with 4-word vector loads, then the block's
//              tree, one partial per block; a second launch of one block sums
//              the partials (time O(n/p)); reorders: commutative operators only
//   pipeline   each block a contiguous segment, read tile by tile (kBlock x
//              kTileWords words) through shared memory: each thread adds its
//              kTileWords consecutive words in order, the block's tree adds the
//              threads' sums, the block keeps a running value; the same kernel
//              with one block over the partials (time O(n/p)); keeps the order
//   cub        cub::DeviceReduce::Sum (CUDA only, the vendor's reference)
// Types: int32 (two's-complement sum modulo 2^32: exact, checked bit for bit),
// float (checked against a double reference within gamma_d of the sum of
// |x|, d the algorithm's longest chain of dependent additions: a bound every
// correct summation order meets; a lost or repeated word shows in the int32
// rows) and affine16 (the non-commutative product of word_type.h, exact):
// tree and pipeline are checked against the product in the words' order,
// cascading against the product in its own order (cascading_product), which
// is not the words' order; each affine16 row's counter keeps_order says
// whether its checked product is the ordered one. CUB's DeviceReduce does
// not support non-commutative operators (its documentation): its affine16
// rows are skipped. GB/s counts the n words read once.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"
#include "word_type.h"

namespace gpucmp::reduce {

constexpr int kBlock = 256;        // threads per block / work-items per group
constexpr int kTileWords = 33;     // pipeline: words per thread per tile (odd: no bank conflict)
constexpr int kBlocksPerUnit = 8;  // cascading/pipeline grid: blocks per SM (2048 threads)

using agpu::Type;

struct Problem {
  std::size_t n = 0;
  Type type = Type::f32;
  std::vector<std::uint32_t> words;  // the input: int32 values, or float bits
  std::uint32_t result = 0;          // the device's sum (bits of the type)
  int grid_blocks = 0;               // set per row from the device (grid_blocks())
  // The CPU reference, made at the first validation: int32 sum modulo 2^32;
  // float sum and sum of |x| in double; affine16 product in order.
  bool have_reference = false;
  std::uint32_t want_int32 = 0, want_affine = 0;
  double want_sum = 0, magnitude = 0;
};

// int32: uniform over all 2^32 values (the sum wraps); float: uniform in
// [-1, 1). Seeded by n and the type.
Problem make_problem(std::size_t n, Type type);

// Blocks of the cascading and pipeline grids on a device of `compute_units`
// SMs: kBlocksPerUnit per SM, fewer where n is small (at least one tile or
// vector per thread).
int grid_blocks(int compute_units, std::size_t n);

// The longest chain of dependent additions of `variant` over n words with
// `blocks` blocks (the float tolerance's d).
int summation_depth(const std::string& variant, std::size_t n, int blocks);

// affine16: the product of `words` in cascading's order over `blocks` blocks
// (each thread's strided vectors, lane by lane, thread t's lane 0 then the
// word 4 x (n / 4) + t where there is one, then the lanes, the block's tree,
// and the second launch's strided shares): what a correct cascading
// kernel returns for a non-commutative operator.
std::uint32_t cascading_product(const std::vector<std::uint32_t>& words, int blocks);

// The affine16 product `variant` is checked against (cascading: its own order).
std::uint32_t affine_reference(Problem& p, const std::string& variant);

Validation validate(Problem& p, const std::string& variant);  // makes the reference once

// quick 2^20; standard 2^16, 2^20, 2^24, 2^28; large up to 2^30.
std::vector<std::size_t> preset_sizes(SizePreset size);

struct Variant {
  std::string name;  // "tree", "cascading", "pipeline", "cub"
};
const std::vector<Variant>& variants();  // the three shared algorithms

// The algorithm a row's variant runs: its name up to the first '-' (OpenCL's
// pipeline-regcap40 is pipeline built with other options). The functions
// below take a row's variant and read its algorithm.
std::string algorithm(const std::string& variant);

// Kernels one launch of `variant` runs over n words: tree one a level until
// a block holds the rest, cascading and pipeline two; 0 for CUB (its
// dispatch is not counted).
int launch_kernels(const std::string& variant, std::size_t n);

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::reduce
