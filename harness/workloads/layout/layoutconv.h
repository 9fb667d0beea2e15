// layoutconv: the data-layout study's conversion (after Yamanaka
// 2014, whose Tables 4.3/4.4 price converting LavaMD's and HeartWall's data
// on the host): n records of W float words from one layout to another, on
// the device (one thread per destination word, runtime layouts, through the
// generated GPUCMP_LAYOUT_INDEX / _RECORD / _WORD: writes in order, reads
// gathered) and, as the counter host_convert_ms, on the host (layouts.h's
// convert, the median of three). Rows
// layoutconv/<api>/base/records:N/words:W/from:<layout>/to:<layout>, for the
// records of LavaMD's particles at each boxes1d, W 4 (particle4) and 12
// (body12). It counts 2 x 4 W N bytes (one read and one write of each word).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../../options.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"
#include "layouts.h"

namespace gpucmp::layoutconv {

constexpr int kBlock = 256;
constexpr int kTile = layout::kDefaultTile;

struct Problem {
  std::size_t records = 0;
  int words = 0;
  layout::Layout from = layout::Layout::aos, to = layout::Layout::soa;
  std::vector<float> src;       // seeded, in `from`
  std::vector<float> expected;  // src converted on the host
  std::vector<float> dst;       // the device's result
  double host_convert_ms = 0;   // the host conversion's median of three
};

Problem make_problem(std::size_t records, int words, layout::Layout from, layout::Layout to);

// Every word equal to the host conversion's, bit for bit (a copy rounds nothing).
Validation validate(const Problem& p);

// The (from, to) pairs of the rows: to and from SoA and AoSoA, AoS the other end.
std::vector<std::pair<layout::Layout, layout::Layout>> pairs();

struct Variant {
  std::string name;  // "base"
};
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::layoutconv
