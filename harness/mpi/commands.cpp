#include "commands.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "../errors.h"
#include "transport.h"

namespace gpucmp::mpi {

using nlohmann::json;

namespace {

bool g_in_command = false;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<Part> parts_of(const json& j) {
  std::vector<Part> parts;
  for (const json& p : j)
    parts.push_back(
        {p[0] == "y" ? SplitAxis::y : SplitAxis::x, p[1].get<long long>(), p[2].get<long long>()});
  return parts;
}

// A split row open on this rank: its part, what the part moves, its runner
// (null on a rank whose part is empty). Rank 0 also keeps every rank's
// transfers, to scatter and gather.
struct OpenRow {
  SplitRow row;
  LocalDevice* device = nullptr;
  std::vector<PartTransfer> io;
  std::vector<std::vector<PartTransfer>> rank_io;  // rank 0 only
  std::unique_ptr<Runner> runner;
  int launches = 0;
};
std::map<long long, OpenRow>& open_rows() {
  static std::map<long long, OpenRow> rows;
  return rows;
}

// One command's outcome on this rank: the first error caught.
class Outcome {
 public:
  template <class Body>
  void attempt(Body body) {
    if (error_) return;  // a failed rank keeps to the protocol, doing nothing more
    try {
      body();
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  bool failed() const { return bool(error_); }
  // Collective: gathers every rank's outcome and returns whether any failed
  // (on every rank); rank 0 then rethrows its own error, else raises the
  // first other rank's (Unavailable stays Unavailable). The command's
  // messages are all exchanged by then.
  bool settle() const {
    Status mine;
    if (error_) try {
        std::rethrow_exception(error_);
      } catch (const Unavailable& e) {
        mine = {Status::unavailable, e.what()};
      } catch (const std::exception& e) {
        mine = {Status::failed, e.what()};
      } catch (...) {
        mine = {Status::failed, "unknown exception"};
      }
    const std::vector<Status> all = gather_status(mine);
    g_in_command = false;
    bool any = false;
    for (const Status& s : all) any = any || s.code != Status::ok;
    if (world_rank() != 0 || !any) return any;
    if (error_) std::rethrow_exception(error_);
    for (std::size_t r = 1; r < all.size(); ++r) {
      const std::string what = "rank " + std::to_string(r) + ": " + all[r].message;
      if (all[r].code == Status::unavailable) throw Unavailable(what);
      if (all[r].code != Status::ok) throw ApiError(what);
    }
    return any;
  }

 private:
  std::exception_ptr error_;
};

// Scatter: rank 0 sends every other rank its part's inputs; the others receive theirs.
void scatter(const OpenRow& r) {
  RectExchange x;
  if (world_rank() == 0)
    for (int peer = 1; peer < int(r.rank_io.size()); ++peer) x.send(r.rank_io[peer], false, peer);
  else
    x.receive(r.io, false, 0);
  x.wait();
}

// Gather: the other ranks send their part's outputs; rank 0 receives them.
void gather(const OpenRow& r) {
  RectExchange x;
  if (world_rank() == 0)
    for (int peer = 1; peer < int(r.rank_io.size()); ++peer) x.receive(r.rank_io[peer], true, peer);
  else
    x.send(r.io, true, 0);
  x.wait();
}

// Runs `task` on the row's device thread (nothing on a rank without a part).
void on_device(OpenRow& r, Outcome& outcome, const std::function<void(Runner&)>& task) {
  if (!r.runner) return;
  outcome.attempt([&] { r.device->workers->run_all([&](int) { task(*r.runner); }); });
}

json open(const json& c, const SplitRow* row0) {
  Outcome outcome;
  OpenRow& r = open_rows()[c["id"].get<long long>()];
  const std::vector<Part> parts = parts_of(c["parts"]);
  const Part part = parts.at(std::size_t(world_rank()));
  r.launches = c["launches"].get<int>();
  outcome.attempt([&] {
    r.device = &local_devices().at(c["api"].get<std::string>());
    r.row = row0 ? *row0 : make_split_row(c["row"].get<std::string>());
    r.io = r.row.io(part);
    if (world_rank() == 0)
      for (const Part& p : parts) r.rank_io.push_back(r.row.io(p));
    else
      poison(r.io, /*outputs=*/false);  // what this rank is never sent fails validation
    if (part.count != 0) r.device->workers->run_all([&](int) { r.runner = r.row.make(0, part); });
  });
  outcome.settle();
  return {};
}

json jobs(OpenRow& r, int count) {
  Outcome outcome;
  const auto job = [&r](int) {
    r.runner->upload();
    r.runner->time_batch(r.launches);
    r.runner->download();
  };
  const auto t0 = std::chrono::steady_clock::now();
  for (int j = 0; j < count; ++j) {
    if (world_rank() == 0) {
      // Rank 0's part computes while its inputs go out and the outputs come back.
      const bool local = r.runner && !outcome.failed();
      if (local) r.device->workers->start_all(job);
      scatter(r);
      gather(r);
      if (local) outcome.attempt([&] { r.device->workers->wait_all(); });
    } else {
      scatter(r);
      if (r.runner) outcome.attempt([&] { r.device->workers->run_all(job); });
      gather(r);
    }
  }
  const double wall = seconds_since(t0);
  outcome.settle();
  return {{"wall_s", wall}};
}

// A resident row's launches (split_executor.h): every rank's part at once,
// between two barriers, on rank 0's clock. The parts trade halos inside
// their launches: a rank that fails there would leave the others waiting
// for its halos, so a failure aborts every rank, with its line first.
json steps(OpenRow& r, int launches) {
  barrier();
  const auto t0 = std::chrono::steady_clock::now();
  if (r.runner) try {
      r.device->workers->run_all([&](int) { r.runner->time_batch(launches); });
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpucmp-bench: error: rank %d: %s (aborting every rank)\n", world_rank(),
                   e.what());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, kExitFailed);
    }
  barrier();
  const double wall = seconds_since(t0);
  Outcome().settle();
  return {{"wall_s", wall}};
}

json probe(const json& c, const SplitRow* row0);

}  // namespace

void RanksGroup::enter(int i) const {
  throw std::logic_error("split device " + id(i) + " is entered by its own rank");
}

bool in_command() { return g_in_command; }
void set_in_command() { g_in_command = true; }

json parts_json(const std::vector<Part>& parts) {
  json out = json::array();
  for (const Part& p : parts) out.push_back({p.axis == SplitAxis::y ? "y" : "x", p.first, p.count});
  return out;
}

json execute(const json& c, const SplitRow* row) {
  const std::string op = c["op"].get<std::string>();
  if (op == "open") return open(c, row);
  if (op == "probe") return probe(c, row);
  OpenRow& r = open_rows().at(c["id"].get<long long>());
  if (op == "jobs") return jobs(r, c["jobs"].get<int>());
  if (op == "steps") return steps(r, c["launches"].get<int>());
  Outcome outcome;
  if (op == "upload") {
    scatter(r);
    on_device(r, outcome, [](Runner& run) { run.upload(); });
  } else if (op == "download") {
    on_device(r, outcome, [](Runner& run) { run.download(); });
    gather(r);
  } else if (op == "flush") {
    const auto bytes = c["bytes"].get<std::size_t>();
    on_device(r, outcome, [bytes](Runner& run) { run.flush_l2(bytes); });
  } else if (op == "close") {
    if (r.runner)
      outcome.attempt([&] { r.device->workers->run_all([&](int) { r.runner.reset(); }); });
    open_rows().erase(c["id"].get<long long>());
  } else {
    outcome.attempt([&] { throw std::logic_error("MPI split: unknown command " + op); });
  }
  outcome.settle();
  return {};
}

namespace {

// The calibrated rule's probe (split_runner.h), one rank after another so
// that each is timed alone: rank 0 probes its own device in-process; for each
// other rank it times one job of that rank's part on its own clock, the
// MPI transfers included, and the rank reports its launch time.
json probe(const json& c, const SplitRow* row0) {
  const std::vector<Part> parts = parts_of(c["parts"]);
  const int launches = c["launches"].get<int>();
  const int probe_launches = c["probe_launches"].get<int>();
  const int me = world_rank();
  Outcome ready;
  LocalDevice* device = nullptr;
  SplitRow row;
  std::vector<std::vector<PartTransfer>> io(parts.size());
  ready.attempt([&] {
    device = &local_devices().at(c["api"].get<std::string>());
    row = row0 ? *row0 : make_split_row(c["row"].get<std::string>());
    for (std::size_t r = 0; r < parts.size(); ++r)
      if (me == 0 || int(r) == me) io[r] = row.io(parts[r]);
    if (me != 0) poison(io[std::size_t(me)], /*outputs=*/false);
  });
  if (ready.settle()) return {};
  g_in_command = true;

  Outcome outcome;
  const double nan = std::nan("");
  std::vector<double> transfer_s(parts.size(), nan), launch_s(parts.size(), nan);
  if (me == 0)
    outcome.attempt([&] {
      const ProbeResult own =
          probe_devices(*device->workers, row.make, {parts[0]}, launches, probe_launches);
      transfer_s[0] = own.transfer_s[0];
      launch_s[0] = own.launch_s[0];
    });
  std::unique_ptr<Runner> runner;
  for (int peer = 1; peer < int(parts.size()); ++peer) {
    const std::vector<PartTransfer>& part_io = io[std::size_t(peer)];
    if (me == 0) {
      RectExchange first;  // the rank's first job, not timed: allocation, first launch
      first.send(part_io, false, peer);
      first.wait();
      receive_doubles(0, peer);  // ready
      const auto t0 = std::chrono::steady_clock::now();
      RectExchange in;
      in.send(part_io, false, peer);
      in.wait();
      RectExchange out;
      out.receive(part_io, true, peer);
      out.wait();
      const double job_s = seconds_since(t0);
      launch_s[peer] = receive_doubles(1, peer)[0];
      transfer_s[peer] = std::max(0.0, job_s - probe_launches * launch_s[peer]);
    } else if (me == peer) {
      RectExchange first;
      first.receive(part_io, false, 0);
      first.wait();
      outcome.attempt([&] {
        device->workers->run_all([&](int) {
          runner = row.make(0, parts[std::size_t(peer)]);
          runner->upload();
          runner->time_batch(1);
        });
      });
      send_doubles({}, 0);
      RectExchange in;
      in.receive(part_io, false, 0);
      in.wait();
      double launch = nan;
      outcome.attempt([&] {
        device->workers->run_all([&](int) {
          runner->upload();
          launch = runner->time_batch(probe_launches).host_s / probe_launches;
          runner->download();
        });
      });
      RectExchange out;
      out.send(part_io, true, 0);
      out.wait();
      send_doubles({launch}, 0);
      if (runner) try {
          device->workers->run_all([&](int) { runner.reset(); });
        } catch (...) {  // a runner's destructor does not throw; nothing to report here
        }
    }
  }
  outcome.settle();
  json result = {{"transfer_s", transfer_s}, {"launch_s", launch_s}};
  return result;
}

}  // namespace

}  // namespace gpucmp::mpi
