// Rank 0's side of the MPI split: its split rows' runner and probe turn
// into commands that every rank runs (commands.h).
#include <utility>

#include "commands.h"
#include "transport.h"

namespace gpucmp::mpi {

using nlohmann::json;

namespace {

// Rank 0 sends `command` to every rank and runs it itself.
json run(json command, const SplitRow* row = nullptr) {
  set_in_command();
  broadcast(command);
  return execute(command, row);
}

// A split row's job runner over the ranks (split_runner.h): one "launch" is
// one whole job, scatter and gather included, timed by rank 0's clock. A
// resident row's (split_executor.h): one launch of every rank's part at once,
// scattered at upload and gathered at download only.
class RanksJobRunner final : public Runner {
 public:
  RanksJobRunner(const std::string& api, const SplitRow& row, const std::vector<Part>& parts,
                 int launches, bool resident)
      : id_(next_id()), resident_(resident) {
    try {
      run({{"op", "open"},
           {"id", id_},
           {"api", api},
           {"row", row.name},
           {"parts", parts_json(parts)},
           {"launches", launches}},
          &row);
    } catch (...) {
      close();
      throw;
    }
  }
  ~RanksJobRunner() override { close(); }
  RanksJobRunner(const RanksJobRunner&) = delete;
  RanksJobRunner& operator=(const RanksJobRunner&) = delete;

  void upload() override { run({{"op", "upload"}, {"id", id_}}); }
  BatchTiming time_batch(int jobs) override {
    const json reply = resident_ ? run({{"op", "steps"}, {"id", id_}, {"launches", jobs}})
                                 : run({{"op", "jobs"}, {"id", id_}, {"jobs", jobs}});
    const double wall = reply["wall_s"].get<double>();
    return {wall, wall, jobs};
  }
  void download() override { run({{"op", "download"}, {"id", id_}}); }
  void flush_l2(std::size_t bytes) override {
    run({{"op", "flush"}, {"id", id_}, {"bytes", bytes}});
  }

 private:
  static long long next_id() {
    static long long id = 0;
    return ++id;
  }
  void close() noexcept {
    try {
      run({{"op", "close"}, {"id", id_}});
    } catch (...) {  // a runner's destructor does not throw; the rank said why at open
    }
  }
  long long id_;
  bool resident_;
};

}  // namespace

std::unique_ptr<Runner> RanksExecutor::runner(const SplitRow& row, const std::vector<Part>& parts,
                                              int launches) {
  return std::make_unique<RanksJobRunner>(api_, row, parts, launches, /*resident=*/false);
}

std::unique_ptr<Runner> RanksExecutor::resident_runner(const SplitRow& row,
                                                       const std::vector<Part>& parts) {
  return std::make_unique<RanksJobRunner>(api_, row, parts, /*launches=*/0, /*resident=*/true);
}

ProbeResult RanksExecutor::probe(const SplitRow& row, const std::vector<Part>& parts, int launches,
                                 int probe_launches) {
  const json r = run({{"op", "probe"},
                      {"api", api_},
                      {"row", row.name},
                      {"parts", parts_json(parts)},
                      {"launches", launches},
                      {"probe_launches", probe_launches}},
                     &row);
  ProbeResult out;
  out.transfer_s = r["transfer_s"].get<std::vector<double>>();
  out.launch_s = r["launch_s"].get<std::vector<double>>();
  for (std::size_t i = 0; i < out.transfer_s.size(); ++i)
    out.job_s.push_back(out.transfer_s[i] + launches * out.launch_s[i]);
  return out;
}

}  // namespace gpucmp::mpi
