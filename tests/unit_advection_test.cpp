// The advection workload's host side: the challenge's grid rules,
// the cubic step (exact at the stencil's points and for cubic polynomials;
// the branch-free form equal to the two-branch one), the double reference
// (a linear field carried exactly by the rotation) and both validations.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors.h"
#include "workloads/advection/advection.h"
#include "workloads/advection/advection_method.h"
#include "workloads/advection/halo_split.h"

namespace gpucmp::advection {
namespace {

std::string grid_error(long long nx, long long ny) {
  try {
    check_grid(nx, ny, "--advection-grid");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Advection, GridRulesNameTheRuleBroken) {
  EXPECT_EQ(grid_error(4096, 4096), "");
  EXPECT_EQ(grid_error(8192, 16384), "");  // problem 5: 2^27 cells
  EXPECT_EQ(grid_error(100, 64),
            "--advection-grid 100x64: nx and ny must be positive multiples of 64");
  EXPECT_EQ(grid_error(0, 64), "--advection-grid 0x64: nx and ny must be positive multiples of 64");
  EXPECT_EQ(grid_error(65536, 64), "--advection-grid 65536x64: nx and ny must be at most 32768");
  EXPECT_EQ(grid_error(16384, 16384),
            "--advection-grid 16384x16384: nx x ny must be at most 2^27 cells");
}

TEST(Advection, CubicIsExactAtItsPointsAndForCubics) {
  const double f[5] = {3, -1, 4, 1, -5};
  EXPECT_DOUBLE_EQ(step_1d(f, 0.0), 4);
  EXPECT_NEAR(evaluate(cubic_plus(f), -1.0), -1, 1e-12);
  EXPECT_NEAR(evaluate(cubic_plus(f), -2.0), 3, 1e-12);
  EXPECT_NEAR(evaluate(cubic_plus(f), 1.0), 1, 1e-12);
  EXPECT_NEAR(evaluate(cubic_minus(f), 1.0), 1, 1e-12);
  EXPECT_NEAR(evaluate(cubic_minus(f), 2.0), -5, 1e-12);
  // g(s) = 2 s^3 - s + 0.5 sampled at s = -2 .. 2: both sides reproduce it.
  const auto g = [](double s) { return 2 * s * s * s - s + 0.5; };
  const double cubic[5] = {g(-2), g(-1), g(0), g(1), g(2)};
  for (double xi : {-0.5, -0.25, 0.3, 0.5}) EXPECT_NEAR(step_1d(cubic, xi), g(xi), 1e-12) << xi;
}

TEST(Advection, BranchFreeFormEqualsTheTwoBranches) {
  std::mt19937 rng(18);
  std::uniform_real_distribution<double> value(-1, 1), offset(-1, 1);
  for (int k = 0; k < 1000; ++k) {
    double f[5];
    for (double& v : f) v = value(rng);
    const double xi = offset(rng);
    const Cubic<double> p = cubic_plus(f), m = cubic_minus(f);
    const double dif = p.c3 - m.c3;
    const double branch_free = evaluate(p, xi) - dif * xi * (xi * xi - 1) * (xi > 0 ? 1 : 0);
    EXPECT_NEAR(branch_free, step_1d(f, xi), 1e-12);
  }
}

TEST(Advection, UpwindWeightsGiveTheSameStep) {
  std::mt19937 rng(1818);
  std::uniform_real_distribution<double> value(-1, 1), offset(-1, 1);
  for (int k = 0; k < 1000; ++k) {
    double f[5], w[5];
    for (double& v : f) v = value(rng);
    const double xi = offset(rng);
    upwind_weights(xi, w);
    double sum = 0;
    for (int i = 0; i < 5; ++i) sum += w[i] * f[i];
    EXPECT_NEAR(sum, step_1d(f, xi), 1e-12) << xi;
  }
}

TEST(Advection, FlowKeepsTheCourantNumberAndTurnsOnce) {
  const Flow flow = make_flow(256, 128);
  EXPECT_NEAR(std::fabs(flow.xi_y(0)), kCourant, 1e-12);  // the widest side's edge
  EXPECT_LE(std::fabs(flow.xi_x(0)), kCourant);
  EXPECT_NEAR(flow.steps_per_turn(), 2 * M_PI * 127.5 / kCourant, 1e-9);
}

TEST(Advection, ReferenceCarriesALinearFieldExactly) {
  // f = x + 2y: every interior cell takes f at its departure point,
  // (x + xi_x, y + xi_y); the border keeps its values.
  const int nx = 64, ny = 128;
  const Flow flow = make_flow(nx, ny);
  std::vector<double> f(std::size_t(nx) * ny), next;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) f[std::size_t(y) * nx + x] = x + 2.0 * y;
  step_reference(flow, f, next);
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const bool border = x < kBorder || y < kBorder || x >= nx - kBorder || y >= ny - kBorder;
      const double want = border ? x + 2.0 * y : (x + flow.xi_x(y)) + 2.0 * (y + flow.xi_y(x));
      ASSERT_NEAR(next[std::size_t(y) * nx + x], want, 1e-9) << x << "," << y;
    }
}

TEST(Advection, ValidationAgainstTheReferenceCatchesOneWrongCell) {
  const int nx = 64, ny = 64, steps = 3;
  const std::vector<double> want = reference(nx, ny, steps);
  std::vector<float> got(want.begin(), want.end());
  EXPECT_TRUE(validate_against(got, want, nx, steps).ok);
  got[std::size_t(30) * nx + 40] += 1e-4F;
  const Validation v = validate_against(got, want, nx, steps);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.where.find("f[y 30, x 40]"), std::string::npos) << v.where;
}

TEST(Advection, LongRunCheckFollowsThePeak) {
  const int nx = 128, ny = 128;
  const std::vector<double> start = initial_field(nx, ny);
  const std::vector<float> f(start.begin(), start.end());
  EXPECT_TRUE(validate_long_run(f, nx, ny, 0).ok) << validate_long_run(f, nx, ny, 0).where;
  // The same field claimed after a quarter turn: its peak is 32 cells away
  // from where the rotation carries it.
  const auto quarter = (long long)std::llround(make_flow(nx, ny).steps_per_turn() / 4);
  const Validation v = validate_long_run(f, nx, ny, quarter);
  EXPECT_FALSE(v.ok);
  EXPECT_GT(v.max_rel_err, 30.0);
  std::vector<float> blown = f;
  blown[0] = 1.5F;  // above the bounds
  EXPECT_FALSE(validate_long_run(blown, nx, ny, 0).ok);
  std::vector<float> unwritten = f;
  unwritten[5] = NAN;  // a cell the download left poisoned
  const Validation nan = validate_long_run(unwritten, nx, ny, 0);
  EXPECT_FALSE(nan.ok);
  EXPECT_NE(nan.where.find("1 cells not finite"), std::string::npos) << nan.where;
}

// 1024^2 cells: the checks' ranges over several threads. The initial field
// (rows made over threads) is centred where it should be, and a cell not
// finite or out of bounds in a late range still fails it, counted once.
TEST(Advection, LongRunCheckOverThreads) {
  const int nx = 1024, ny = 1024;
  const std::vector<double> start = initial_field(nx, ny);
  const std::vector<float> f(start.begin(), start.end());
  const Validation v = validate_long_run(f, nx, ny, 0);
  EXPECT_TRUE(v.ok) << v.where;
  EXPECT_LT(v.max_rel_err, 0.01) << v.where;  // the centre, to a hundredth of a cell
  std::vector<float> late = f;
  late[late.size() - 3 * std::size_t(nx) - 5] = NAN;
  late[late.size() / 2 + 7] = -0.5F;
  const Validation bad = validate_long_run(late, nx, ny, 0);
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.where.find("out of bounds"), std::string::npos) << bad.where;
  EXPECT_NE(bad.where.find("1 cells not finite"), std::string::npos) << bad.where;
}

// The double reference over three turns at 64^2 (omega 0.5 / 31.5): its
// peak follows the method's trajectory, drawn 2.3 cells in from the exact
// rotation's, and the long-run check passes it.
TEST(Advection, LongRunCheckFollowsTheMethodsTrajectory) {
  const int n = 64;
  const auto steps = (long long)std::llround(3 * make_flow(n, n).steps_per_turn());
  const std::vector<double> ref = reference(n, n, int(steps));
  const std::vector<float> f(ref.begin(), ref.end());
  const Validation v = validate_long_run(f, n, n, steps);
  EXPECT_TRUE(v.ok) << v.where;
  const Point p = peak_after(n, n, steps);
  const Flow flow = make_flow(n, n);
  const double pulled_in = n / 4.0 - std::hypot(p.x - flow.xc, p.y - flow.yc);
  EXPECT_GT(pulled_in, 2.0);
  EXPECT_LT(pulled_in, 2.6);
}

TEST(AdvectionHalo, SplitAtTheChallengesMid) {
  EXPECT_EQ(split_rows(4096, 1), (std::vector<RowRange>{{0, 4096}}));
  EXPECT_EQ(split_rows(4096, 2), (std::vector<RowRange>{{0, 2048}, {2048, 2048}}));
  EXPECT_EQ(split_rows(192, 2), (std::vector<RowRange>{{0, 64}, {64, 128}}));  // floor(192/128) = 1
  EXPECT_EQ(split_rows(16384, 2), (std::vector<RowRange>{{0, 8192}, {8192, 8192}}));
  EXPECT_THROW(split_rows(64, 2), Unavailable);  // mid 0
  EXPECT_THROW(split_rows(4096, 0), std::invalid_argument);
}

// N parts: bands of whole 64-row blocks, at 64 floor(i ny / (64 N)).
TEST(AdvectionHalo, SplitInBandsOfWholeBlocks) {
  EXPECT_EQ(split_rows(4096, 4),
            (std::vector<RowRange>{{0, 1024}, {1024, 1024}, {2048, 1024}, {3072, 1024}}));
  EXPECT_EQ(split_rows(4096, 3), (std::vector<RowRange>{{0, 1344}, {1344, 1344}, {2688, 1408}}));
  EXPECT_EQ(split_rows(320, 4),  // floor(i 320 / 256): 0, 1, 2, 3 blocks of 64
            (std::vector<RowRange>{{0, 64}, {64, 64}, {128, 64}, {192, 128}}));
  EXPECT_THROW(split_rows(192, 4), Unavailable);  // part 0 would be empty
}

// A middle part trades with both neighbours; each trade is the neighbour's
// mirror image.
TEST(AdvectionHalo, MiddlePartsTradeBothWays) {
  const std::vector<RowRange> parts = split_rows(1024, 4);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const HaloPart h = halo_part(parts, i, 1024);
    EXPECT_EQ(h.up, i == 0 ? -1 : i - 1);
    EXPECT_EQ(h.down, i == 3 ? -1 : i + 1);
    EXPECT_EQ(halo_trades(h).size(), std::size_t(i == 0 || i == 3 ? 1 : 2));
    if (h.up >= 0) {
      EXPECT_EQ(h.send_up, halo_part(parts, h.up, 1024).recv_down);
    }
    if (h.down >= 0) {
      EXPECT_EQ(h.send_down, halo_part(parts, h.down, 1024).recv_up);
    }
  }
  const HaloPart middle = halo_part(parts, 1, 1024);
  EXPECT_EQ(middle.resident, (RowRange{254, 260}));
  EXPECT_EQ(middle.interior, (RowRange{258, 252}));
}

TEST(AdvectionHalo, PartsExchangeTheTwoRowsNextToTheSplit) {
  const std::vector<RowRange> parts = split_rows(256, 2);  // mid 128
  const HaloPart top = halo_part(parts, 0, 256), bottom = halo_part(parts, 1, 256);
  EXPECT_EQ(top.own, (RowRange{0, 128}));
  EXPECT_EQ(top.resident, (RowRange{0, 130}));
  EXPECT_EQ(top.interior, (RowRange{0, 126}));
  EXPECT_EQ(top.up, -1);
  EXPECT_EQ(top.down, 1);
  EXPECT_EQ(top.send_down, (RowRange{126, 2}));
  EXPECT_EQ(top.recv_down, (RowRange{128, 2}));
  EXPECT_EQ(bottom.resident, (RowRange{126, 130}));
  EXPECT_EQ(bottom.interior, (RowRange{130, 126}));
  EXPECT_EQ(bottom.up, 0);
  EXPECT_EQ(bottom.down, -1);
  // What one sends is what the other receives.
  EXPECT_EQ(bottom.send_up, top.recv_down);
  EXPECT_EQ(top.send_down, bottom.recv_up);
  // One part: every row its own and interior, nothing exchanged.
  const HaloPart whole = halo_part(split_rows(256, 1), 0, 256);
  EXPECT_EQ(whole.interior, (RowRange{0, 256}));
  EXPECT_EQ(whole.resident, (RowRange{0, 256}));
  EXPECT_EQ(whole.send_up.count + whole.send_down.count, 0);
}

TEST(AdvectionHalo, HaloTradesPairUp) {
  const std::vector<RowRange> parts = split_rows(256, 2);
  const std::vector<HaloTrade> top = halo_trades(halo_part(parts, 0, 256));
  const std::vector<HaloTrade> bottom = halo_trades(halo_part(parts, 1, 256));
  ASSERT_EQ(top.size(), 1u);
  ASSERT_EQ(bottom.size(), 1u);
  EXPECT_EQ(top[0].peer, 1);
  EXPECT_EQ(bottom[0].peer, 0);
  EXPECT_EQ(top[0].send, bottom[0].recv);
  EXPECT_EQ(bottom[0].send, top[0].recv);
  EXPECT_TRUE(halo_trades(halo_part(split_rows(256, 1), 0, 256)).empty());
}

// Every own row launched once a step; with overlap, the rows launched while
// the halo is in flight read no halo row, and the rows sent are launched first.
TEST(AdvectionHalo, StepPlansCoverTheOwnRowsOnce) {
  const std::vector<RowRange> parts = split_rows(1024, 2);  // mid 512
  for (int tile : {4, 16, 64})
    for (int i : {0, 1})
      for (Exchange e : {Exchange::sync, Exchange::overlap}) {
        SCOPED_TRACE("tile " + std::to_string(tile) + " part " + std::to_string(i) + " " +
                     to_string(e));
        const HaloPart part = halo_part(parts, i, 1024);
        const StepPlan plan = step_plan(part, tile, e);
        std::vector<int> launched(1024, 0);
        for (const auto* ranges : {&plan.first, &plan.during})
          for (const RowRange& r : *ranges) {
            EXPECT_EQ(r.count % tile, 0);
            for (int y = r.first; y < r.end(); ++y) ++launched[std::size_t(y)];
          }
        for (int y = 0; y < 1024; ++y)
          EXPECT_EQ(launched[std::size_t(y)], y >= part.own.first && y < part.own.end() ? 1 : 0);
        if (e == Exchange::sync) {
          EXPECT_TRUE(plan.during.empty());
          continue;
        }
        ASSERT_EQ(plan.during.size(), 1u);
        EXPECT_GE(plan.during[0].first, part.interior.first);
        EXPECT_LE(plan.during[0].end(), part.interior.end());
        for (const HaloTrade& t : halo_trades(part)) {
          bool sent_first = false;
          for (const RowRange& r : plan.first)
            sent_first = sent_first || (t.send.first >= r.first && t.send.end() <= r.end());
          EXPECT_TRUE(sent_first);
        }
      }
  // One part: everything first, nothing during, whatever the exchange.
  const StepPlan whole = step_plan(halo_part(split_rows(256, 1), 0, 256), 16, Exchange::overlap);
  EXPECT_EQ(whole.first, (std::vector<RowRange>{{0, 256}}));
  EXPECT_TRUE(whole.during.empty());
  EXPECT_THROW(step_plan(halo_part(split_rows(192, 2), 1, 192), 128, Exchange::sync),
               std::invalid_argument);
}

// A cycle of K steps between exchanges, modelled row by row: after an
// exchange a part's own rows and the 2K it received each side are valid;
// a launched row is valid after a step when its five source rows (within
// the grid) were valid before it; every launch is whole tiles inside the
// resident rows and reads only resident rows. Every own row must be valid
// after every step, launched once a step, and the rows sent lie in the
// exchanging step's first launches.
TEST(AdvectionHalo, CyclesKeepTheOwnRowsValid) {
  constexpr int ny = 1024;
  const std::vector<RowRange> parts = split_rows(ny, 4);
  for (int steps : {1, 2, 3, 4, 8, 16})
    for (int tile : {4, 16, 64})
      for (int i = 0; i < 4; ++i)
        for (Exchange e : {Exchange::sync, Exchange::overlap}) {
          SCOPED_TRACE("K " + std::to_string(steps) + " tile " + std::to_string(tile) + " part " +
                       std::to_string(i) + " " + to_string(e));
          const HaloPart part = halo_part(parts, i, ny, steps, tile);
          EXPECT_EQ(part.send_down.count + part.send_up.count,
                    2 * steps * ((part.up >= 0) + (part.down >= 0)));
          const std::vector<StepPlan> plans = cycle_plans(part, tile, e);
          ASSERT_EQ(int(plans.size()), steps);
          std::vector<int> valid(ny, 0);  // 1: the row's value is right
          for (int y = 0; y < ny; ++y)
            valid[std::size_t(y)] = y >= part.own.first - 2 * steps * (part.up >= 0) &&
                                            y < part.own.end() + 2 * steps * (part.down >= 0)
                                        ? 1
                                        : 0;
          for (int k = 0; k < steps; ++k) {
            const StepPlan& plan = plans[std::size_t(k)];
            EXPECT_EQ(plan.exchange, k == steps - 1);
            std::vector<int> next(ny, 0);
            std::vector<int> launched(ny, 0);
            for (const auto* ranges : {&plan.first, &plan.during})
              for (const RowRange& r : *ranges) {
                EXPECT_EQ(r.first % tile, 0);
                EXPECT_EQ(r.count % tile, 0);
                EXPECT_GE(r.first, part.resident.first);
                EXPECT_LE(r.end(), part.resident.end());
                for (int y = r.first; y < r.end(); ++y) {
                  ++launched[std::size_t(y)];
                  bool ok = true;
                  for (int s = std::max(0, y - 2); s <= std::min(ny - 1, y + 2); ++s) {
                    EXPECT_TRUE(s >= part.resident.first && s < part.resident.end()) << s;
                    ok = ok && valid[std::size_t(s)] != 0;
                  }
                  next[std::size_t(y)] = ok ? 1 : 0;
                }
              }
            for (int y = part.own.first; y < part.own.end(); ++y) {
              EXPECT_EQ(launched[std::size_t(y)], 1) << "step " << k << " row " << y;
              EXPECT_TRUE(next[std::size_t(y)]) << "step " << k << " row " << y;
            }
            valid = next;
          }
          for (const HaloTrade& t : halo_trades(part)) {
            bool in_first = false;
            for (const RowRange& r : plans.back().first)
              in_first = in_first || (t.send.first >= r.first && t.send.end() <= r.end());
            EXPECT_TRUE(in_first);
          }
        }
  // Halos wider than a part: skipped, saying why.
  EXPECT_THROW(halo_part(split_rows(256, 4), 1, 256, 33, 16), Unavailable);
  EXPECT_THROW(halo_part(parts, 0, ny, 0, 16), std::invalid_argument);
}

TEST(AdvectionHalo, ExchangeNames) {
  EXPECT_EQ(parse_exchange("sync", "--x"), Exchange::sync);
  EXPECT_EQ(parse_exchange("overlap", "--x"), Exchange::overlap);
  EXPECT_EQ(to_string(Exchange::overlap), "overlap");
  EXPECT_THROW(parse_exchange("async", "--x"), UsageError);
}

}  // namespace
}  // namespace gpucmp::advection
