// ceiling: the roofline's ceilings, measured by the suite itself on each GPU,
// paired on both APIs. Every variant but the one-block ones (launch,
// launch-args, launch-args-once, launch-spin-<s>) launches kBlocksPerUnit blocks of kBlock
// threads per compute unit (all resident), and each thread writes one 32-bit
// result, so nothing it computes can be dropped:
//   fma     kChains independent FMA chains of kFmaSteps steps per thread
//           (a <- a x kFmaScale + kFmaAdd), then their float sum: FP32 peak,
//           2 flop per FMA
//   shared  a block fills kSharedWords words of shared memory, then each
//           thread reads kSharedSteps uint4 (16 bytes) from it, a warp's 32
//           consecutive (no bank conflict), and sums them: shared bandwidth
//   l2      kL2Passes passes over a kL2Words buffer (16 MiB: inside the L2 of
//           an H100 or H200), grid-stride in uint4, shifted by a block each
//           pass (so no pass repeats another's addresses), summed: L2 bandwidth
//   launch  one block, each thread writes its own word: the launch alone,
//           the kernel of the launch floor (launch_floor.h)
//   launch-grid  launch's kernel over the full grid (each thread its global
//           index's word): what a launch of that many blocks adds to the
//           floor, on each API
//   launch-args  launch's one block with layoutconv's arguments (two
//           buffers, one read, and four scalars: kArgs*), each thread its
//           word plus args_word_offset(), so that arguments that did not
//           arrive fail: what passing them adds to the floor
//   launch-args-once  OpenCL only (unpaired: CUDA passes its arguments with
//           every launch): launch-args with the arguments set once, before
//           the first launch, not before each: what setting them costs
//   launch-spin-<s>  one block, each thread one dependent FMA chain of s
//           steps (kSpinSteps; a <- a x kFmaScale + kFmaAdd from
//           chain_start(t, 0)), its float bits written: a kernel that lasts
//           longer the larger s, and nothing else changes; back to back
//           against the same kernels timed alone (--launch-gaps), what of a
//           kernel's own time each API's launches hide
// DRAM's ceiling is the device copy (bandwidth d2d) and triad. Results are
// checked on a sample of kChecked threads spread over the grid (the one-block
// variants: every thread of the block; launch-grid: every thread; the CPU
// repeats each sampled thread's work): fma within 2^-20 relative (the same
// correctly rounded FMAs in the same order; only the final sum may differ by
// contraction), launch-spin exactly (one chain of correctly rounded FMAs),
// shared, l2 and the other launch variants exactly (uint sums modulo
// 2^32). The runners fill the device's results with 0xff bytes first.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"

namespace gpucmp::ceiling {

constexpr int kBlock = 256;
constexpr int kBlocksPerUnit = 8;
constexpr int kChains = 8;
constexpr int kFmaSteps = 4096;
constexpr float kFmaScale = 0.9999f;
constexpr float kFmaAdd = 0.001f;
constexpr int kSharedWords = 4096;  // 16 KiB: 1024 uint4
constexpr int kSharedSteps = 4096;
constexpr int kL2Words = 1 << 22;  // 16 MiB
constexpr int kL2Passes = 64;
constexpr int kChecked = 1024;
// launch-spin's chain lengths: from about half a microsecond to about fifteen
// microseconds of one block's FMAs on an H200.
constexpr int kSpinSteps[] = {128, 256, 512, 768, 1024, 1536, 2048, 4096};

// launch-args' scalar arguments, passed by both APIs: n, count, from, to.
// from is 0, so the kernel never reads its buffer of words.
constexpr std::uint64_t kArgsN = kBlock;
constexpr int kArgsCount = 4;
constexpr int kArgsFrom = 0;
constexpr int kArgsTo = 1;
// What launch-args adds to each thread's word: n + count + to (mod 2^32).
constexpr std::uint32_t args_word_offset() {
  return std::uint32_t(kArgsN) + std::uint32_t(kArgsCount + kArgsTo);
}
// The variant only OpenCL runs (ceiling.h's list).
inline constexpr const char* kLaunchArgsOnce = "launch-args-once";

struct Problem {
  int blocks = 0;                    // compute units x kBlocksPerUnit
  std::vector<std::uint32_t> words;  // l2's buffer (kL2Words)
  std::vector<std::uint32_t> out;    // one result per thread (float bits for fma)
  std::size_t threads() const { return std::size_t(blocks) * kBlock; }
};

Problem make_problem(int compute_units);

struct Variant {
  std::string name;  // "fma", "shared", "l2", or a launch variant (above)
};
const std::vector<Variant>& variants();  // the paired ones (not launch-args-once)

// Whether `v` runs one block (launch, launch-args, launch-args-once, launch-spin-<s>).
bool one_block(const Variant& v);
// launch-spin-<s>'s s; 0 for every other variant. Parses the name without
// allocating: the runners ask at every launch.
int spin_steps(std::string_view name);
int spin_steps(const Variant& v);
// Blocks of kBlock threads one launch of `v` runs: 1 for one_block(v), else p.blocks.
int grid_blocks(const Variant& v, const Problem& p);

// Flop (fma) or bytes (shared, l2 and the launch variants: the words it
// writes) one launch counts.
double counted_work(const Variant& v, const Problem& p);

// The threads validate() checks: how many, and the k-th of them.
std::size_t sampled_threads(const Variant& v, const Problem& p);
std::size_t sampled_thread(const Variant& v, const Problem& p, std::size_t k);

// The shared tile's word k, as the kernels fill it.
std::uint32_t shared_word(int k);
// A thread's first value of chain j (fma), as the kernels start it.
float chain_start(std::size_t thread, int j);

// The sampled threads' results against the CPU's.
Validation validate(const Problem& p, const Variant& v);

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::ceiling
