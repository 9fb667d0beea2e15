// The halo link over MPI (harness/halo_link.h): non-blocking sends and
// receives between the ranks of the parts, on a tag of their own; the
// collectives on the world communicator.
#include <mpi.h>

#include <climits>
#include <stdexcept>
#include <string>

#include "../errors.h"
#include "../halo_link.h"
#include "../mpi_split.h"
#include "transport.h"

namespace gpucmp {

namespace {

constexpr int kHaloTag = (1 << 20) + 16;  // above the transfers' and the statuses' tags

int message_count(std::size_t bytes) {
  if (bytes > std::size_t(INT_MAX))
    throw std::length_error("halo message of " + std::to_string(bytes) + " bytes beyond an int");
  return int(bytes);
}

class MpiHaloLink final : public HaloLink {
 public:
  int part() const override { return mpi::world_rank(); }
  int parts() const override { return mpi::world_size(); }
  bool in_process() const override { return false; }

  void exchange(const std::vector<HaloMessage>& messages) override {
    std::vector<MPI_Request> requests(messages.size() * 2, MPI_REQUEST_NULL);
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const HaloMessage& m = messages[i];
      const int count = message_count(m.bytes);
      MPI_Irecv(m.recv, count, MPI_BYTE, m.peer, kHaloTag, MPI_COMM_WORLD, &requests[2 * i]);
      MPI_Isend(m.send, count, MPI_BYTE, m.peer, kHaloTag, MPI_COMM_WORLD, &requests[2 * i + 1]);
    }
    if (MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      throw ApiError("MPI_Waitall of the halo exchange failed");
  }

  void broadcast(void* data, std::size_t bytes) override {
    MPI_Bcast(data, message_count(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
  }

  void all_gather(const void* mine, void* all, std::size_t bytes) override {
    const int count = message_count(bytes);
    MPI_Allgather(mine, count, MPI_BYTE, all, count, MPI_BYTE, MPI_COMM_WORLD);
  }

  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }
};

}  // namespace

HaloLink& mpi_halo_link() {
  if (!mpi::active())
    throw Unavailable(
        "the two-GPU rows run one MPI rank per GPU: mpirun -np 2 gpucmp-bench --split-over mpi");
  static MpiHaloLink link;
  return link;
}

}  // namespace gpucmp
