// Unit tests of LastProblem (workload.h): which problems are made again and
// which are kept, counted by the make function's calls.
#include <gtest/gtest.h>

#include <string>

#include "workload.h"

namespace gpucmp {
namespace {

struct Made {
  int key = 0;
  int serial = 0;
};

struct Maker {
  int calls = 0;
  Made operator()(int key) { return Made{key, ++calls}; }
};

TEST(LastProblem, OneKeptByDefault) {
  LastProblem<int, Made> cache;
  Maker make;
  const auto get = [&](int k) { return cache.get(k, [&] { return make(k); }).serial; };
  EXPECT_EQ(get(1), 1);
  EXPECT_EQ(get(1), 1);  // the same configuration shares it
  EXPECT_EQ(get(2), 2);
  EXPECT_EQ(get(1), 3);  // made again: only the last is kept
  EXPECT_EQ(cache.size(), 1u);
}

TEST(LastProblem, InterleavedKeysHitWithinTheCapacity) {
  LastProblem<int, Made> cache(3);
  Maker make;
  const auto get = [&](int k) { return cache.get(k, [&] { return make(k); }).serial; };
  for (int round = 0; round < 4; ++round)
    for (int k : {3, 1, 2}) get(k);
  EXPECT_EQ(make.calls, 3);  // each made once
  EXPECT_EQ(cache.size(), 3u);
}

TEST(LastProblem, TheLeastRecentlyUsedGoesFirst) {
  LastProblem<int, Made> cache(2);
  Maker make;
  const auto get = [&](int k) { return cache.get(k, [&] { return make(k); }).serial; };
  EXPECT_EQ(get(1), 1);
  EXPECT_EQ(get(2), 2);
  EXPECT_EQ(get(1), 1);  // 1 is now the most recent
  EXPECT_EQ(get(3), 3);  // evicts 2
  EXPECT_EQ(get(1), 1);
  EXPECT_EQ(get(2), 4);  // made again
  EXPECT_EQ(cache.size(), 2u);
}

TEST(LastProblem, ZeroKeepsOne) {
  LastProblem<int, Made> cache(0);
  Maker make;
  EXPECT_EQ(cache.get(5, [&] { return make(5); }).key, 5);
  EXPECT_EQ(cache.size(), 1u);
}

}  // namespace
}  // namespace gpucmp
