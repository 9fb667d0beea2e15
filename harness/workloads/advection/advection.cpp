#include "advection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "../../errors.h"
#include "../../parallel_for.h"
#include "advection_method.h"

namespace gpucmp::advection {

namespace {
constexpr std::size_t kCellGrain = std::size_t(1) << 18;  // cells a thread takes at least
}  // namespace

void check_grid(long long nx, long long ny, const std::string& what) {
  const std::string grid = what + " " + std::to_string(nx) + "x" + std::to_string(ny) + ": ";
  if (nx < kGridMultiple || ny < kGridMultiple || nx % kGridMultiple || ny % kGridMultiple)
    throw UsageError(grid + "nx and ny must be positive multiples of 64");
  if (nx > kMaxSide || ny > kMaxSide) throw UsageError(grid + "nx and ny must be at most 32768");
  if (nx * ny > kMaxCells) throw UsageError(grid + "nx x ny must be at most 2^27 cells");
}

Flow make_flow(int nx, int ny) {
  Flow f;
  f.nx = nx;
  f.ny = ny;
  f.xc = (nx - 1) / 2.0;
  f.yc = (ny - 1) / 2.0;
  f.omega = kCourant / std::max(f.xc, f.yc);
  return f;
}

double Flow::steps_per_turn() const { return 2 * M_PI / omega; }

std::vector<double> initial_field(int nx, int ny) {
  const Flow flow = make_flow(nx, ny);
  const double side = std::min(nx, ny), sigma = side / 16, x0 = flow.xc + side / 4, y0 = flow.yc;
  std::vector<double> f(std::size_t(nx) * std::size_t(ny));
  // Each cell a function of its place alone: rows over threads.
  parallel_for(std::size_t(ny), 64, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t y = begin; y < end; ++y)
      for (int x = 0; x < nx; ++x) {
        const double dx = x - x0, dy = double(y) - y0;
        f[y * std::size_t(nx) + std::size_t(x)] =
            std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
      }
  });
  return f;
}

void step_reference(const Flow& flow, const std::vector<double>& from, std::vector<double>& to) {
  const int nx = flow.nx, ny = flow.ny;
  to = from;  // the border keeps its values
  for (int y = kBorder; y < ny - kBorder; ++y) {
    const double xi_x = flow.xi_x(y);
    for (int x = kBorder; x < nx - kBorder; ++x) {
      double column[5];
      for (int r = 0; r < 5; ++r)
        column[r] = step_1d(&from[std::size_t(y - 2 + r) * nx + std::size_t(x - 2)], xi_x);
      to[std::size_t(y) * nx + x] = step_1d(column, flow.xi_y(x));
    }
  }
}

std::vector<double> reference(int nx, int ny, int steps) {
  const Flow flow = make_flow(nx, ny);
  std::vector<double> f = initial_field(nx, ny), next;
  for (int s = 0; s < steps; ++s) {
    step_reference(flow, f, next);
    f.swap(next);
  }
  return f;
}

Validation validate_against(const std::vector<float>& got, const std::vector<double>& want, int nx,
                            int steps) {
  return check_elements(
      want.size(), steps * kStepTolerance,
      [&](std::size_t i) { return std::fabs(double(got[i]) - want[i]); },
      [&](std::size_t i) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "f[y %zu, x %zu]: got %.9g, want %.9g (after %d steps)",
                      i / std::size_t(nx), i % std::size_t(nx), double(got[i]), want[i], steps);
        return std::string(buf);
      });
}

Point peak_after(int nx, int ny, long long steps) {
  const Flow flow = make_flow(nx, ny);
  const double n = double(steps), angle = n * std::atan(flow.omega);
  const double radius = std::min(nx, ny) / 4.0 * std::pow(1 + flow.omega * flow.omega, -n / 2);
  return {flow.xc + radius * std::cos(angle), flow.yc + radius * std::sin(angle)};
}

Validation validate_long_run(const std::vector<float>& got, int nx, int ny, long long steps) {
  const Point want = peak_after(nx, ny, steps);
  const double want_x = want.x, want_y = want.y;
  // Two passes over threads (parallel_for.h), each thread's partials combined
  // in range order: the bounds and the cells not finite, then the centre.
  struct Bounds {
    std::size_t not_finite = 0;
    float lo = INFINITY, hi = -INFINITY;
  };
  std::vector<Bounds> bounds(host_threads(got.size(), kCellGrain));
  parallel_for(got.size(), kCellGrain, [&](std::size_t begin, std::size_t end, unsigned t) {
    Bounds b;
    for (std::size_t i = begin; i < end; ++i) {
      const float f = got[i];
      if (!std::isfinite(f)) {  // a cell never written (poisoned NaN) or blown up
        ++b.not_finite;
        continue;
      }
      b.hi = std::max(b.hi, f);
      b.lo = std::min(b.lo, f);
    }
    bounds[t] = b;
  });
  std::size_t not_finite = 0;
  float lo = INFINITY, hi = -INFINITY;
  for (const Bounds& b : bounds) {
    not_finite += b.not_finite;
    lo = std::min(lo, b.lo);
    hi = std::max(hi, b.hi);
  }
  // The centre: the mean position of the cells above half the maximum (the
  // Gaussian's top is flat to FP32 over cells: its argmax wanders by rounding).
  struct Centre {
    double sum = 0, sx = 0, sy = 0;
  };
  std::vector<Centre> centres(host_threads(got.size(), kCellGrain));
  parallel_for(got.size(), kCellGrain, [&](std::size_t begin, std::size_t end, unsigned t) {
    Centre c;
    for (std::size_t i = begin; i < end; ++i)
      if (std::isfinite(got[i]) && got[i] > hi / 2) {
        c.sum += 1;
        const std::size_t row = i / std::size_t(nx), column = i % std::size_t(nx);
        c.sx += double(column);
        c.sy += double(row);
      }
    centres[t] = c;
  });
  double sum = 0, sx = 0, sy = 0;
  for (const Centre& c : centres) {
    sum += c.sum;
    sx += c.sx;
    sy += c.sy;
  }
  const double px = sum > 0 ? sx / sum : NAN, py = sum > 0 ? sy / sum : NAN;
  const double miss = std::hypot(px - want_x, py - want_y);
  Validation v;
  v.checked = got.size();
  v.tolerance = kPeakCells;
  v.max_rel_err = miss;
  const bool bounded = lo >= -kBoundSlack && hi <= 1 + kBoundSlack && std::isfinite(miss);
  v.ok = miss <= kPeakCells && bounded && not_finite == 0;
  char buf[280];
  std::snprintf(
      buf, sizeof buf,
      "%safter %lld steps: peak %.4g, centre (%.2f, %.2f), want near (%.1f, %.1f) (%.2f cells "
      "off); min %.4g, max %.4g (bounds -%g .. 1+%g); %zu cells not finite",
      bounded || !std::isfinite(miss) ? "" : "out of bounds: ", steps, double(hi), px, py, want_x,
      want_y, miss, double(lo), double(hi), kBoundSlack, kBoundSlack, not_finite);
  v.where = buf;
  return v;
}

}  // namespace gpucmp::advection
