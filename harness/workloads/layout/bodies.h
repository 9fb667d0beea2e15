// bodies: the data-layout study's wide record: n bodies of
// records.json's body12 (pos[3], vel[3], acc[3], mass, charge, radius: 12
// words), of which the kernel reads 3, pos, and writes each body's squared
// distance from the origin, r2 = x^2 + y^2 + z^2, to a plain array. The
// bodies are in the row's layout (layout:aos|soa|aosoa, AoSoA tiles of 32),
// converted on the host. Where a thread touches a quarter of its record the
// layout decides the traffic: it counts the 16 bytes a body needs (3 words
// read, 1 written), so GB/s is the useful bandwidth.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../../options.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"
#include "layouts.h"

namespace gpucmp::bodies {

constexpr int kBlock = 256;
constexpr int kWords = 12;  // body12
constexpr long long kMaxBodies = 1LL << 27;

struct Problem {
  std::size_t n = 0;       // a multiple of kBlock (and of the AoSoA tile)
  std::vector<float> aos;  // n x 12, seeded, AoS
  std::vector<float> r2;   // the device's result
};

// Every word uniform in [-1, 1), seeded by n.
Problem make_problem(std::size_t n);

// Every body against x^2 + y^2 + z^2 in double: three products and two sums
// in float (fused or not) lie within 3 u of it, relative (all terms >= 0).
Validation validate(const Problem& p);

// The bytes a body needs: 3 words read, 1 written.
double counted_bytes(std::size_t n);

// quick 2^16; standard and large 2^24 and 2^26 bodies (768 MiB and 3 GiB of records).
std::vector<std::size_t> preset_sizes(SizePreset size);

using Variant = layout::Variant;
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::bodies
