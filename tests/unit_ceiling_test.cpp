// The ceiling workload's host side: the counted work of each
// ceiling, and a validation that passes the CPU's own results for the sampled
// threads and fails a wrong one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/roofline/ceiling.h"

namespace gpucmp::ceiling {
namespace {

// The sampled threads' results computed as the kernels do (the CPU's).
void fill_sampled(Problem& p, const Variant& v) {
  const std::size_t threads = p.threads();
  for (std::size_t k = 0; k < sampled_threads(v, p); ++k) {
    const std::size_t t = sampled_thread(v, p, k);
    const std::size_t tx = t % kBlock;
    if (const int steps = spin_steps(v); steps > 0) {
      float a = chain_start(t, 0);
      for (int s = 0; s < steps; ++s) a = std::fma(a, kFmaScale, kFmaAdd);
      std::memcpy(&p.out[t], &a, sizeof a);
    } else if (v.name == "launch" || v.name == "launch-grid") {
      p.out[t] = std::uint32_t(t) * 2654435761U;  // as the kernels write it
    } else if (v.name == "launch-args" || v.name == kLaunchArgsOnce) {
      p.out[t] = std::uint32_t(t) * 2654435761U + 256 + 4 + 1;  // + n + count + to
    } else if (v.name == "fma") {
      float a[kChains];
      for (int j = 0; j < kChains; ++j) a[j] = chain_start(t, j);
      for (int s = 0; s < kFmaSteps; ++s)
        for (float& x : a) x = std::fma(x, kFmaScale, kFmaAdd);
      float sum = 0;
      for (float x : a) sum += x;
      std::memcpy(&p.out[t], &sum, sizeof sum);
    } else if (v.name == "shared") {
      std::uint32_t sum = 0;
      for (int r = 0; r < kSharedSteps; ++r) {
        const int q = int((tx + std::size_t(r) * kBlock) % (kSharedWords / 4));
        for (int c = 0; c < 4; ++c) sum += shared_word(4 * q + c);
      }
      p.out[t] = sum;
    } else {
      std::uint32_t sum = 0;
      constexpr std::size_t kVectors = kL2Words / 4;
      for (int pass = 0; pass < kL2Passes; ++pass)
        for (std::size_t q = t; q < kVectors; q += threads)
          for (int c = 0; c < 4; ++c)
            sum += p.words[4 * ((q + std::size_t(pass) * kBlock) % kVectors) + c];
      p.out[t] = sum;
    }
  }
}

TEST(Ceiling, CountedWork) {
  const Problem p = make_problem(2);  // 16 blocks of 256
  EXPECT_EQ(p.threads(), 4096u);
  EXPECT_DOUBLE_EQ(counted_work({"fma"}, p), 4096.0 * kChains * kFmaSteps * 2);
  EXPECT_DOUBLE_EQ(counted_work({"shared"}, p), 4096.0 * kSharedSteps * 16);
  EXPECT_DOUBLE_EQ(counted_work({"l2"}, p), double(kL2Passes) * kL2Words * 4);
  EXPECT_DOUBLE_EQ(counted_work({"launch"}, p), kBlock * 4.0);
  EXPECT_DOUBLE_EQ(counted_work({"launch-grid"}, p), 4096.0 * 4);
  EXPECT_EQ(grid_blocks({"launch"}, p), 1);
  EXPECT_EQ(grid_blocks({"launch-grid"}, p), 16);
  EXPECT_DOUBLE_EQ(counted_work({"launch-args"}, p), kBlock * 4.0);
  EXPECT_EQ(grid_blocks({"launch-args"}, p), 1);
  EXPECT_EQ(sampled_threads({"launch-args"}, p), std::size_t(kBlock));
  EXPECT_EQ(grid_blocks({kLaunchArgsOnce}, p), 1);
  EXPECT_DOUBLE_EQ(counted_work({kLaunchArgsOnce}, p), kBlock * 4.0);
  EXPECT_EQ(sampled_threads({kLaunchArgsOnce}, p), std::size_t(kBlock));
  EXPECT_EQ(grid_blocks({"l2"}, p), 16);
}

TEST(Ceiling, LaunchChecksEveryThreadOfItsBlockAndNoOther) {
  const Problem p = make_problem(2);
  EXPECT_EQ(sampled_threads({"launch"}, p), std::size_t(kBlock));
  EXPECT_EQ(sampled_thread({"launch"}, p, kBlock - 1), std::size_t(kBlock - 1));
  EXPECT_EQ(sampled_threads({"fma"}, p), std::size_t(kChecked));
}

// launch-grid checks every thread of the grid, past launch's one block.
TEST(Ceiling, LaunchGridChecksEveryThread) {
  const Problem p = make_problem(2);
  const Variant grid{"launch-grid"};
  EXPECT_EQ(sampled_threads(grid, p), p.threads());
  EXPECT_EQ(sampled_thread(grid, p, p.threads() - 1), p.threads() - 1);
}

// launch-args' words carry its scalar arguments: launch's word would fail.
TEST(Ceiling, LaunchArgsWordsCarryTheArguments) {
  Problem p = make_problem(2);
  for (const Variant& v : {Variant{"launch-args"}, Variant{kLaunchArgsOnce}}) {
    for (std::size_t t = 0; t < std::size_t(kBlock); ++t)
      p.out[t] = std::uint32_t(t) * 2654435761U;  // launch's words, without the arguments
    EXPECT_FALSE(validate(p, v).ok) << v.name;
  }
}

// Every chain length is a paired one-block variant named by its steps, and
// no other name reads as one.
TEST(Ceiling, SpinVariantsAreOneBlockNamedByTheirSteps) {
  const Problem p = make_problem(2);
  int spins = 0;
  for (const Variant& v : variants()) {
    if (spin_steps(v) == 0) continue;
    ++spins;
    EXPECT_EQ(v.name, "launch-spin-" + std::to_string(spin_steps(v)));
    EXPECT_EQ(grid_blocks(v, p), 1) << v.name;
    EXPECT_EQ(sampled_threads(v, p), std::size_t(kBlock)) << v.name;
  }
  EXPECT_EQ(spins, int(std::size(kSpinSteps)));
  for (const char* name : {"launch", "launch-spin-", "launch-spin-3", "launch-spin-512x",
                           "launch-spin-0512", "launch-spin--512", "fma"})
    EXPECT_EQ(spin_steps(Variant{name}), 0) << name;
  EXPECT_EQ(spin_steps(Variant{"launch-spin-512"}), 512);
  EXPECT_EQ(spin_steps(std::string_view("launch-spin-4096")), 4096);
}

// A spin row that ran a step fewer fails, and so does one whose result is
// one ulp off: the chain is compared bit for bit.
TEST(Ceiling, SpinChainIsComparedBitForBit) {
  Problem p = make_problem(2);
  const Variant v{"launch-spin-128"};
  for (std::size_t t = 0; t < std::size_t(kBlock); ++t) {
    float a = chain_start(t, 0);
    for (int s = 0; s < 127; ++s) a = std::fma(a, kFmaScale, kFmaAdd);
    std::memcpy(&p.out[t], &a, sizeof a);
  }
  EXPECT_FALSE(validate(p, v).ok);
  fill_sampled(p, v);
  ASSERT_TRUE(validate(p, v).ok);
  p.out[7] += 1;  // the next float up: one ulp
  EXPECT_FALSE(validate(p, v).ok);
}

// launch-args-once is OpenCL's own variant: not among the paired ones.
TEST(Ceiling, LaunchArgsOnceIsNotPaired) {
  for (const Variant& v : variants()) EXPECT_NE(v.name, kLaunchArgsOnce);
}

TEST(Ceiling, SampledThreadsPassAndAWrongOneFails) {
  Problem p = make_problem(2);
  std::vector<Variant> all = variants();
  all.push_back({kLaunchArgsOnce});
  for (const Variant& v : all) {
    fill_sampled(p, v);
    EXPECT_TRUE(validate(p, v).ok) << v.name << ": " << validate(p, v).describe();
    const std::size_t t = sampled_thread(v, p, 5);  // the sixth sampled thread
    p.out[t] ^= 0x00400000U;
    const Validation bad = validate(p, v);
    EXPECT_FALSE(bad.ok) << v.name;
    EXPECT_NE(bad.where.find("thread " + std::to_string(t)), std::string::npos) << bad.where;
    p.out[t] ^= 0x00400000U;
  }
}

}  // namespace
}  // namespace gpucmp::ceiling
