#include "halo_split.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "../../errors.h"

namespace gpucmp::advection {

std::vector<RowRange> split_rows(int ny, int parts) {
  if (parts < 1)
    throw std::invalid_argument("advection: a split into " + std::to_string(parts) + " parts");
  // Part i starts at row 64 floor(i ny / (64 parts)): bands of whole 64-row
  // blocks, the remainder in the later parts (two parts: 64 floor(ny / 128)).
  std::vector<RowRange> out;
  for (int i = 0; i < parts; ++i) {
    const auto at = [&](int k) {
      return k == parts ? ny : int(64 * ((long long)k * ny / (64LL * parts)));
    };
    const RowRange r{at(i), at(i + 1) - at(i)};
    if (r.count < kHaloRows)
      throw Unavailable("ny " + std::to_string(ny) + " over " + std::to_string(parts) +
                        " parts: the split at 64 x floor(i ny / (64 x " + std::to_string(parts) +
                        ")) leaves part " + std::to_string(i) + " empty");
    out.push_back(r);
  }
  return out;
}

namespace {

int round_up(int n, int multiple) { return (n + multiple - 1) / multiple * multiple; }

// Rows step k of a cycle of `steps` recomputes next to each neighbour.
int reach(int steps, int k, int tile_rows) {
  return round_up(kHaloRows * (steps - 1 - k), tile_rows);
}

}  // namespace

HaloPart halo_part(const std::vector<RowRange>& parts, int i, int ny, int steps, int tile_rows) {
  if (steps < 1 || tile_rows < 1)
    throw std::invalid_argument("advection halo: steps " + std::to_string(steps) + ", tile rows " +
                                std::to_string(tile_rows));
  HaloPart h;
  h.own = parts.at(std::size_t(i));
  h.steps = steps;
  const int wide = kHaloRows * steps;  // rows traded each way
  const int pad = std::max(wide, kHaloRows + reach(steps, 0, tile_rows));
  const bool has_up = i > 0, has_down = i + 1 < int(parts.size());
  for (int j : {i - 1, i, i + 1})
    if (j >= 0 && j < int(parts.size()) && parts[std::size_t(j)].count < wide)
      throw Unavailable("--advection-halo-steps " + std::to_string(steps) + ": " +
                        std::to_string(wide) + " halo rows each way, more than part " +
                        std::to_string(j) + "'s " + std::to_string(parts[std::size_t(j)].count) +
                        " rows");
  const int first = has_up ? std::max(0, h.own.first - pad) : h.own.first;
  h.resident = {first, (has_down ? std::min(ny, h.own.end() + pad) : h.own.end()) - first};
  const int top = h.own.first + (has_up ? kHaloRows : 0);
  const int bottom = h.own.end() - (has_down ? kHaloRows : 0);
  h.interior = {top, std::max(0, bottom - top)};
  if (has_up) {
    h.up = i - 1;
    h.send_up = {h.own.first, wide};
    h.recv_up = {h.own.first - wide, wide};
  }
  if (has_down) {
    h.down = i + 1;
    h.send_down = {h.own.end() - wide, wide};
    h.recv_down = {h.own.end(), wide};
  }
  return h;
}

std::vector<HaloTrade> halo_trades(const HaloPart& part) {
  std::vector<HaloTrade> trades;
  if (part.up >= 0) trades.push_back({part.up, part.send_up, part.recv_up});
  if (part.down >= 0) trades.push_back({part.down, part.send_down, part.recv_down});
  return trades;
}

std::vector<StagedTrade> staged_trades(const HaloPart& part, int nx) {
  const auto at = [&](const RowRange& r) {
    return std::size_t(r.first - part.resident.first) * std::size_t(nx) * sizeof(float);
  };
  std::vector<StagedTrade> out;
  for (const HaloTrade& t : halo_trades(part))
    out.push_back({t.peer, at(t.send), at(t.recv),
                   std::size_t(t.send.count) * std::size_t(nx) * sizeof(float)});
  return out;
}

std::string to_string(Transport t) {
  switch (t) {
    case Transport::mpi:
      return "mpi";
    case Transport::host:
      return "host";
    case Transport::p2p:
      return "p2p";
    case Transport::p2p_copy:
      return "p2p-copy";
    case Transport::context:
      return "context";
  }
  return "?";
}

Transport parse_transport(const std::string& text, const std::string& what) {
  for (Transport t :
       {Transport::mpi, Transport::host, Transport::p2p, Transport::p2p_copy, Transport::context})
    if (text == to_string(t)) return t;
  throw UsageError(what + " " + text + ": not a transport (mpi, host, p2p, p2p-copy, context)");
}

std::string to_string(Exchange e) { return e == Exchange::sync ? "sync" : "overlap"; }

Exchange parse_exchange(const std::string& text, const std::string& what) {
  if (text == "sync") return Exchange::sync;
  if (text == "overlap") return Exchange::overlap;
  throw UsageError(what + " " + text + ": not an exchange (sync, overlap)");
}

StepPlan step_plan(const HaloPart& part, int tile_rows, Exchange exchange) {
  if (tile_rows <= 0 || part.own.count % tile_rows != 0 || part.own.first % tile_rows != 0)
    throw std::invalid_argument("advection step plan: rows " + std::to_string(part.own.first) +
                                " + " + std::to_string(part.own.count) +
                                " are not whole tiles of " + std::to_string(tile_rows));
  StepPlan plan;
  const bool neighbours = part.up >= 0 || part.down >= 0;
  const int edge = round_up(kHaloRows * part.steps, tile_rows);  // the tiles holding rows sent
  if (exchange == Exchange::sync || !neighbours || part.own.count <= edge) {
    plan.first = {part.own};
    return plan;
  }
  int first = part.own.first, end = part.own.end();
  if (part.up >= 0) {
    plan.first.push_back({first, edge});
    first += edge;
  }
  if (part.down >= 0 && end - edge >= first) {
    plan.first.push_back({end - edge, edge});
    end -= edge;
  }
  if (end > first) plan.during.push_back({first, end - first});
  return plan;
}

std::vector<StepPlan> cycle_plans(const HaloPart& part, int tile_rows, Exchange exchange) {
  std::vector<StepPlan> plans;
  for (int k = 0; k + 1 < part.steps; ++k) {
    const int r = reach(part.steps, k, tile_rows);
    const int first = part.up >= 0 ? part.own.first - r : part.own.first;
    const int end = part.down >= 0 ? part.own.end() + r : part.own.end();
    const int read_first = part.up >= 0 ? first - kHaloRows : first;
    const int read_end = part.down >= 0 ? end + kHaloRows : end;
    if (read_first < part.resident.first && first > 0)
      throw std::logic_error("advection halo: step " + std::to_string(k) + " reads row " +
                             std::to_string(read_first) + ", above the resident rows");
    if (read_end > part.resident.end() && end < part.resident.end())
      throw std::logic_error("advection halo: step " + std::to_string(k) + " reads row " +
                             std::to_string(read_end - 1) + ", below the resident rows");
    StepPlan plan;
    plan.exchange = false;
    const int lo = std::max(first, part.resident.first);
    const int hi = std::min(end, part.resident.end());
    plan.first = {{lo, hi - lo}};
    plans.push_back(plan);
  }
  plans.push_back(step_plan(part, tile_rows, exchange));
  return plans;
}

}  // namespace gpucmp::advection
