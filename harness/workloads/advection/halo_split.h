// The row split of advection over one or more devices, in row bands: two
// parts split at mid = 64 x floor(ny / 128), as the challenge states it, N
// parts at 64 x floor(i ny / (64 N)); each part computes its own rows and
// needs its neighbours' 2 rows next to each split every step. What a part holds, sends and
// receives, and which of its rows need no halo (the interior, computed while the halo is
// exchanged), are stated here once for both APIs and every transport.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "../../halo_link.h"

namespace gpucmp::advection {

struct RowRange {
  int first = 0, count = 0;
  int end() const { return first + count; }
  bool operator==(const RowRange& o) const { return first == o.first && count == o.count; }
};

constexpr int kHaloRows = 2;

// The parts' own rows: one part, every row; two, [0, mid) and [mid, ny);
// N, part i from 64 floor(i ny / (64 N)) to the next part's first row.
// Throws Unavailable where a part would be left empty (two parts of ny = 64),
// std::invalid_argument for fewer than one part.
std::vector<RowRange> split_rows(int ny, int parts);

struct HaloPart {
  RowRange own;                   // the rows this part computes
  RowRange resident;              // own plus the halo rows it reads (the device buffer's rows)
  RowRange interior;              // own rows whose five source rows are all its own
  int up = -1, down = -1;         // the neighbouring parts (rows above / below), -1: none
  RowRange send_up, recv_up;      // rows sent to and received from `up`
  RowRange send_down, recv_down;  // rows sent to and received from `down`
  int steps = 1;                  // steps from one exchange to the next
};

// Part i of `parts` (split_rows) over ny rows, trading halos every `steps`
// steps (--advection-halo-steps K): 2K rows each way, enough for the next K
// steps, the part recomputing its neighbours' rows next to it in between
// (K = 1: 2 rows every step). The rows recomputed are whole tiles of
// `tile_rows` (cycle_plans), so the resident rows reach as far as those
// read: own plus max(2K, 2 + tile_rows ceil(2(K - 1) / tile_rows)) rows
// each side, within the grid. Throws Unavailable where the halo would be
// wider than a part's own rows.
HaloPart halo_part(const std::vector<RowRange>& parts, int i, int ny, int steps = 1,
                   int tile_rows = 1);

// A part's trade with one neighbour: `send` of its own rows out, `recv` of
// the neighbour's rows in (up first, then down: the order of the messages).
struct HaloTrade {
  int peer = -1;
  RowRange send, recv;
};
std::vector<HaloTrade> halo_trades(const HaloPart& part);

// A trade staged through host memory (both APIs, every transport that
// passes the host): where its rows lie in the part's device buffer (which
// holds the grid's rows from part.resident.first on), in bytes, and the
// link's message of it between host buffers of `bytes` each.
struct StagedTrade {
  int peer = -1;
  std::size_t send_offset = 0, recv_offset = 0, bytes = 0;
  HaloMessage message(const void* send, void* recv) const { return {peer, send, recv, bytes}; }
};
std::vector<StagedTrade> staged_trades(const HaloPart& part, int nx);

// How the parts' halos travel, the rows' over:<transport>:
//   mpi       one MPI rank per GPU (CUDA: NCCL; OpenCL: staged through the
//             host, MPI messages): the path that crosses nodes
//   host      one process, one thread per GPU, staged through host memory
//             (both APIs; the hub of thread_halo.h)
//   p2p       one process, one thread per GPU, CUDA: the step's kernels
//             store the edge rows straight into the neighbour's halo too
//             (peer access), as NVIDIA's multi_threaded_p2p does
//   p2p-copy  the same, the edge rows copied into the neighbour's halo by
//             cudaMemcpyPeerAsync after the kernels (the control)
//   context   one process, one thread per GPU, OpenCL: one context over every
//             part's device, the edge rows copied between the parts' buffers
//             by clEnqueueCopyBuffer (opencl/advection/context_halo.h)
enum class Transport { mpi, host, p2p, p2p_copy, context };
std::string to_string(Transport t);
// Throws UsageError naming `what` unless `text` is one of the names above.
Transport parse_transport(const std::string& text, const std::string& what);
inline bool in_process(Transport t) { return t != Transport::mpi; }

// When a part exchanges its halo rows: after its whole step (sync), or while
// it computes the rows that need no halo (overlap).
enum class Exchange { sync, overlap };
std::string to_string(Exchange e);
// "sync" or "overlap"; throws UsageError naming `what`.
Exchange parse_exchange(const std::string& text, const std::string& what);

// What one step of a part launches, each range a whole number of the
// kernel's tile rows. A step that exchanges: `first` before its halo
// exchange starts, `during` while it runs; sync: every own row first;
// overlap: first the tiles holding the rows sent to each neighbour, during
// the rest, whose source rows are all own (so the halo being received is
// not read). A part without neighbours: every own row first. A step between
// exchanges (exchange false): `first` only, the own rows and those of the
// neighbours' rows next to them still to be recomputed.
struct StepPlan {
  std::vector<RowRange> first, during;
  bool exchange = true;
};
// The step that exchanges. Throws std::invalid_argument unless the part's
// own rows are whole tiles.
StepPlan step_plan(const HaloPart& part, int tile_rows, Exchange exchange);
// The part.steps steps from one exchange to the next, in order: step k
// (k = steps done modulo part.steps) extends the own rows by tile_rows
// ceil(2(part.steps - 1 - k) / tile_rows) rows towards each neighbour (the
// rows valid after it: 2 fewer than before it), the last exchanges
// (step_plan). Throws std::logic_error where the part's resident rows (made
// for another tile height) do not hold what the steps read.
std::vector<StepPlan> cycle_plans(const HaloPart& part, int tile_rows, Exchange exchange);

// Where a launch of halo_step runs: `edges` (the plan's `first`) on the
// exchange's own stream or queue where there is one, so that they run
// beside the interior rather than before it and the exchange follows them
// there; `interior` (the plan's `during`) on the compute stream or queue.
enum class StepPhase { edges, interior };

// One step in the plan's order, the one place it is written for both APIs:
// launch(range, edges) for each of `first`, start(), launch(range, interior)
// for each of `during`, finish(). start() begins the exchange of the rows
// `first` wrote (a stream- or queue-ordered one returns at once); finish()
// makes the next step's launches wait for it. A step between exchanges:
// launch(range, interior) for each of `first`, nothing else.
template <class Launch, class Start, class Finish>
void halo_step(const StepPlan& plan, Launch launch, Start start, Finish finish) {
  if (!plan.exchange) {
    for (const RowRange& r : plan.first) launch(r, StepPhase::interior);
    return;
  }
  for (const RowRange& r : plan.first) launch(r, StepPhase::edges);
  start();
  for (const RowRange& r : plan.during) launch(r, StepPhase::interior);
  finish();
}

}  // namespace gpucmp::advection
