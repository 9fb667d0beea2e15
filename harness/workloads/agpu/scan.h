// scan: the inclusive prefix sum of the AGPU model (Nakano et al.)
// over n 32-bit words, both APIs, plus CUB's DeviceScan on CUDA:
//   alpha  reduce, then scan: blocks of kBlock threads each own a tile of
//          alpha x kBlock words; a first launch writes each tile's sum, one
//          block scans those sums (tile by tile, kSumsAlpha words per
//          thread), and a third launch scans each tile through
//          shared memory (each thread its alpha consecutive words in order,
//          the block's scan of the threads' totals) plus its offset. Reads the
//          words twice and writes them once (the model's I/O 3n/b); alpha
//          (a row parameter, 1 to kMaxAlpha) trades the serial work per thread
//          against the blocks resident per SM, as the model's parameter does.
//          --scan-load batched asks for its rows with each thread's tile
//          words all loaded into registers before the first is stored to
//          shared memory (named .../load:batched; alpha 8, 16 and 32 only):
//          the cross-run of the load order the compilers pick
//   lookback  one pass with decoupled look-back (Merrill and Garland, 2016):
//          tiles as alpha's, each taken in the order blocks start (an atomic
//          counter); a tile publishes its sum, adds its predecessors' sums
//          (kWindow at a time, nearest first) back to the first that holds
//          its prefix, publishes its own prefix and writes its scan. Reads
//          and writes the words once (I/O 2n/b). Its kernel reads alpha at
//          run time and its thread 0 adds the window: the other forms tried
//          (alpha compiled; a window of 256 added by the block's scan) ran
//          slower on the H200 (docs/studies/agpu.md)
//   onepass  lookback's algorithm with far fewer instructions a word: alpha
//          compiled (4, 8, 16, 32 only: other alphas' rows are skipped), the
//          thread's alpha words in registers, loaded and stored as 16-byte
//          vectors (coalesced, through shared memory), the block's scan by
//          warp shuffles (CUDA) and the look-back a warp's: 32 predecessors
//          a round, combined in order by shuffles (cuda/agpu/scan_onepass.cu,
//          opencl/agpu/scan_onepass.cl); between polls of a predecessor's
//          status it sleeps (CUDA's __nanosleep; OpenCL: PTX nanosleep by
//          inline asm on NVIDIA's driver, no sleep elsewhere) unless
//          --scan-poll spin asks for its rows polling without sleeping
//          (named .../poll:spin: the cross-run that prices the sleeps)
//   cub    cub::DeviceScan::InclusiveSum (CUDA only, the vendor's reference:
//          one pass with decoupled look-back)
// Types as reduce's: int32 modulo 2^32, checked word for word; float, each
// prefix within gamma_d of the sum of |x| up to it, d the algorithm's longest
// chain of dependent additions; affine16 (the non-commutative product of
// word_type.h), every prefix checked word for word against the product in
// the words' order: alpha, lookback, onepass and CUB's DeviceScan::InclusiveScan all
// keep the order. GB/s counts 2 x 4 x n bytes (read once,
// written once), as the copy comparison does.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"
#include "word_type.h"

namespace gpucmp::scan {

using agpu::Type;
constexpr int kBlock = 256;
constexpr int kMaxAlpha = 32;   // words per thread: the tile fits 33 KiB of shared memory
constexpr int kSumsAlpha = 32;  // the scan of the tile sums: words per thread of its tiles

struct Problem {
  std::size_t n = 0;
  Type type = Type::f32;
  std::vector<std::uint32_t> words;  // input (int32 values, or float bits)
  std::vector<std::uint32_t> out;    // the device's inclusive prefix sums
};

Problem make_problem(std::size_t n, Type type);

struct Variant {
  std::string name;      // "alpha", "lookback", "onepass", "cub", kOnepassRegcap64
  int alpha = 0;         // words per thread (alpha, lookback and onepass rows; set by the harness)
  bool spin = false;     // onepass: poll predecessors without sleeping (--scan-poll spin)
  bool batched = false;  // alpha: the tile's words loaded before any is stored (--scan-load)
};
const std::vector<Variant>& variants();  // the shared algorithms: alpha, lookback, onepass
// OpenCL's onepass built with at most 64 registers a thread on NVIDIA's driver
// (-cl-nv-maxrregcount=64: 4 blocks of kBlock an SM by the register file, as
// CUDA's onepass at alpha 32), an option an OpenCL user has; the kernel then
// goes without its required work-group size (-DANY_GROUP_SIZE), under which
// the JIT ignores the cap. Elsewhere onepass.
inline constexpr const char* kOnepassRegcap64 = "onepass-regcap64";
// Whether the variant runs onepass's kernel (onepass, kOnepassRegcap64).
bool is_onepass(const Variant& v);
// The alphas whose kernels are compiled with batched loads (Variant::batched).
bool batched_has_alpha(int alpha);

// Tiles of an alpha row over n words: ceil(n / (alpha x kBlock)).
std::size_t tiles(std::size_t n, int alpha);
// The alpha the kernels are compiled for (unrolled): alpha itself where it
// is a power of two, else 0 (the kernels read it at run time).
int compiled_alpha(int alpha);
// lookback's scratch: one 64-bit status word per tile, then the tile counter.
std::size_t lookback_status_bytes(std::size_t n, int alpha);
// Whether the variant's scratch is lookback's tile status (lookback, onepass).
bool has_tile_status(const Variant& v);
// The alphas onepass is compiled for: 4, 8, 16, 32 (whole 16-byte vectors).
bool onepass_has_alpha(int alpha);

// The longest chain of dependent additions behind one prefix of `v` over n words.
int summation_depth(const Variant& v, std::size_t n);

Validation validate(const Problem& p, const Variant& v);

// quick 2^20; standard 2^16, 2^20, 2^24, 2^28; large up to 2^30.
std::vector<std::size_t> preset_sizes(SizePreset size);
// quick 8; standard and large 1, 2, 4, 8, 16, 32.
std::vector<int> preset_alphas(SizePreset size);

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::scan
