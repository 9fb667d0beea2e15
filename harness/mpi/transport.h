// The MPI calls of the split rows (harness/mpi_split.h), kept apart from
// what the commands do: the command broadcast, rectangles of host arrays
// sent and received as MPI derived datatypes, and each command's status
// gathered on rank 0. Only the main thread calls these
// (MPI_THREAD_FUNNELED).
#pragma once
#include <mpi.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../split_io.h"

namespace gpucmp::mpi {

int world_rank();
int world_size();

// Every rank waits for every other.
void barrier();

// Rank 0's `command` reaches every rank (the others' argument is replaced).
void broadcast(nlohmann::json& command);

// Non-blocking sends and receives of the rectangles of `transfers` with one
// direction (outputs or inputs), to or from `peer`; wait() completes them
// all. Message tags are the transfers' indices, so both sides must list a
// part's transfers in the same order (PartIo does).
class RectExchange {
 public:
  RectExchange();
  ~RectExchange();  // waits for what is still pending
  RectExchange(const RectExchange&) = delete;
  RectExchange& operator=(const RectExchange&) = delete;

  void send(const std::vector<PartTransfer>& transfers, bool outputs, int peer);
  void receive(const std::vector<PartTransfer>& transfers, bool outputs, int peer);
  void wait();

 private:
  struct Type;
  void post(const std::vector<PartTransfer>& transfers, bool outputs, int peer, bool sending);
  std::vector<std::unique_ptr<Type>> types_;
  std::vector<MPI_Request> requests_;
};

// One rank's outcome of a command (or, for checkpoint(), its exit code).
struct Status {
  enum Code { ok = 0, failed = 1, unavailable = 2 };
  int code = ok;
  std::string message;
};
// Collective: every rank gets every rank's status code (in rank order), so
// that all abandon a failed command alike; only rank 0 gets the messages.
std::vector<Status> gather_status(const Status& mine);

// Point-to-point doubles and an empty "ready" message, for the probe.
void send_doubles(const std::vector<double>& values, int peer);
std::vector<double> receive_doubles(int count, int peer);

}  // namespace gpucmp::mpi
