// lavamd: Rodinia's LavaMD (particle potential and relocation in a 3-D box
// grid), written from its description for the data-layout study (
// after Yamanaka 2014): boxes1d^3 boxes of 100 particles; every particle of a
// box interacts with every particle of its own box and of its up to 26
// neighbours through the pair potential of alpha 0.5: r2 = v_i + v_j -
// (x_i x_j + y_i y_j + z_i z_j), vij = exp(-2 alpha^2 r2), and the force
// f_i += q_j (vij, 2 vij (x_i - x_j), 2 vij (y_i - y_j), 2 vij (z_i - z_j)).
// One block / work-group of 128 per home box, as Rodinia's kernel; the home
// and neighbour particles staged in shared / local memory per field. The
// particle records rv (v, x, y, z) and the forces fv are kept in global
// memory in the row's layout (layout:aos|soa|aosoa, AoSoA tiles of 32),
// through the generated accessors of records.json's particle4, converted on
// the host before the upload and back after the download. Unlike Rodinia,
// which adds into fv in global memory inside its inner loop (valid for one
// launch only), each thread sums its particle's force in registers and
// stores it once, so every launch computes the same fv.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../../options.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"
#include "layouts.h"

namespace gpucmp::lavamd {

constexpr int kParPerBox = 100;  // Rodinia's NUMBER_PAR_PER_BOX
constexpr int kThreads = 128;    // Rodinia's NUMBER_THREADS: one block per box
constexpr int kNeighbours = 27;  // the box itself and up to 26 neighbours
constexpr float kA2 = 0.5f;      // 2 alpha^2 with alpha 0.5
constexpr int kTile = layout::kDefaultTile;
constexpr int kMaxBoxes1d = 80;
constexpr int kFlopsPerInteraction =
    24;  // counted: r2 7, u2 1, fs 1, d 3, products 4, sums 8 (and one exp)
constexpr int kSampledParticles = 4096;  // above kFullCheckMaxParticles: a seeded sample is checked
constexpr std::size_t kFullCheckMaxParticles = 110000;

struct Problem {
  int boxes1d = 0;
  std::size_t boxes = 0, particles = 0;
  std::vector<int> neighbours;  // boxes x kNeighbours: the box itself first, then its neighbours
  std::vector<int> counts;      // per box: how many of its kNeighbours entries are used
  std::vector<float> rv;        // particles x 4, AoS (v, x, y, z): the seeded input
  std::vector<float> qv;        // particles: the charges
  std::vector<float> fv;        // particles x 4, AoS: the device's result, converted back
  // The reference of the checked particles (every one up to
  // kFullCheckMaxParticles, else a seeded sample): per particle its 4 force
  // words in double, and each word's scale, the sum of its terms' magnitudes
  // with the differences taken as |a| + |b| (the bound's measure, validate()).
  std::vector<std::size_t> checked;
  std::vector<double> ref, scale;
  std::vector<int> terms;  // per checked particle: the pairs summed (<= 2700)
};

// boxes1d^3 boxes, Rodinia's inputs: v, x, y, z and q each one of 0.1, 0.2, .., 1.0
// (seeded by boxes1d); neighbours in Rodinia's order (l, m, n from -1 to 1).
Problem make_problem(int boxes1d);

// Every checked word: |f - ref| / scale against gamma_(k + 32) (u = 2^-24, k
// the particle's pairs): a float sum of k terms each within about 32 u of its
// exact value relative to its scale term (the cancellations in r2 and in the
// differences, the exp of 2 to 4 ulp, the products) is within that of the
// exact sum for any summation order, so a correct kernel cannot fail; a
// dropped or repeated pair moves a word by about scale / k, about twice the
// bound at k = 2700.
Validation validate(const Problem& p);
double tolerance(int terms);

// Pairs one launch computes (sum over boxes of 100 x the particles of the box
// and its neighbours), and the flops counted for them.
double interactions(const Problem& p);

// quick: 4 (6400 particles); standard and large: 10, 20, .., 70 as the study.
std::vector<int> preset_sizes(SizePreset size);

// base: the kernel as the study's; aligned: its shared arrays aligned to 16
// bytes (NVIDIA's OpenCL JIT emits LDS.128 only then; docs/studies/layouts.md).
using Variant = layout::Variant;
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::lavamd
