// The advection workload's problem and its validation (advection.h): after
// the first step against the double reference, after more by the long-run
// check. Its rows: advection_rows.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "../../workload_registry.h"
#include "advection.h"
#include "advection_method.h"

namespace gpucmp::advection {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {{"blocked"}, {"branchy"}, {"plain"}, {"weights"},
                                         {"stream"},  {"async"},   {"ring"}};
  return v;
}

bool runs_async_kernel(const std::string& variant) {
  static const std::set<std::string> names = {"async",
                                              "ring",
                                              kAsyncCpAsync,
                                              kAsyncPtxCpAsync,
                                              kAsyncPtxCpAsyncNoBar,
                                              kAsyncMaxL1,
                                              kAsyncCpAsyncWait0,
                                              kAsyncCpAsync4B,
                                              kAsyncCpAsync4BWait0,
                                              kRingVec4};
  return names.count(variant) > 0;
}

TileShape tile_shape(const std::string& variant) {
  TileShape t;
  if (variant == "plain") {
    t.rows = t.threads_y = kPlainRows;
  } else if (variant == "weights") {
    t.rows = kWeightsRows;
  } else if (runs_async_kernel(variant)) {
    t.cols = kAsyncThreads * kAsyncCells;
    t.rows = kAsyncRows;
    t.threads_x = kAsyncThreads;
  }
  return t;
}

int tile_rows(const std::string& variant) { return tile_shape(variant).rows; }

HaloPart runner_part(const Problem& p, const Variant& v) {
  return halo_part(split_rows(p.ny, v.parts), v.part, p.ny, v.halo_steps, tile_rows(v.name));
}

std::vector<StepPlan> runner_plans(const HaloPart& part, const Variant& v) {
  return cycle_plans(part, tile_rows(v.name), v.exchange);
}

Runners& runners() {
  static Runners table("advection", variants());
  return table;
}

Problem make_problem(int nx, int ny) {
  Problem p;
  p.nx = nx;
  p.ny = ny;
  p.flow = make_flow(nx, ny);
  const std::vector<double> f = initial_field(nx, ny);
  p.initial.assign(f.begin(), f.end());
  p.out.assign(f.size(), NAN);
  return p;
}

double counted_bytes(int nx, int ny) { return 8.0 * double(nx) * double(ny); }

std::vector<std::pair<int, int>> preset_grids(SizePreset size) {
  if (size == SizePreset::quick) return {{256, 256}};
  return {{2048, 2048}, {4096, 4096}, {16384, 4096}, {8192, 16384}};
}

namespace {
constexpr long long kFullCheckCells = 1LL << 22;
constexpr int kSampledRows = 64;

// The rows the one-step check covers.
std::vector<int> checked_rows(int nx, int ny) {
  std::vector<int> rows;
  if (static_cast<long long>(nx) * ny <= kFullCheckCells) {
    for (int y = 0; y < ny; ++y) rows.push_back(y);
    return rows;
  }
  for (int k = 0; k < kSampledRows; ++k)
    rows.push_back(int((long long)(ny - 1) * k / (kSampledRows - 1)));
  rows.push_back(kBorder);
  rows.push_back(ny - 1 - kBorder);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

// One step at cell (x, y) in double from the FP32 initial field.
double one_step(const Problem& p, int x, int y) {
  const auto at = [&](int cx, int cy) { return double(p.initial[std::size_t(cy) * p.nx + cx]); };
  if (x < kBorder || y < kBorder || x >= p.nx - kBorder || y >= p.ny - kBorder) return at(x, y);
  double column[5];
  for (int r = 0; r < 5; ++r) {
    double row[5];
    for (int c = 0; c < 5; ++c) row[c] = at(x - 2 + c, y - 2 + r);
    column[r] = step_1d(row, p.flow.xi_x(y));
  }
  return step_1d(column, p.flow.xi_y(x));
}

Validation validate_one_step(const Problem& p) {
  const std::vector<int> rows = checked_rows(p.nx, p.ny);
  const auto cell = [&](std::size_t i) {
    return std::pair<int, int>{int(i % std::size_t(p.nx)), rows[i / std::size_t(p.nx)]};
  };
  return check_elements_parallel(
      rows.size() * std::size_t(p.nx), kStepTolerance,
      [&](std::size_t i) {
        const auto [x, y] = cell(i);
        return std::fabs(double(p.out[std::size_t(y) * p.nx + x]) - one_step(p, x, y));
      },
      [&](std::size_t i) {
        const auto [x, y] = cell(i);
        char buf[128];
        std::snprintf(buf, sizeof buf, "f[y %d, x %d]: got %.9g, want %.9g (after 1 step)", y, x,
                      double(p.out[std::size_t(y) * p.nx + x]), one_step(p, x, y));
        return std::string(buf);
      });
}
}  // namespace

Validation validate(const Problem& p) {
  if (p.steps_done == 1) return validate_one_step(p);
  return validate_long_run(p.out, p.nx, p.ny, p.steps_done);
}

}  // namespace gpucmp::advection

// Registered beside its runners() table (workload_registry.h); the rank is its
// place in a run.
GPUCMP_WORKLOAD(advection, 170, gpucmp::advection::make_workload);
