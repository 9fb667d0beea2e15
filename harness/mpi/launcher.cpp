#include "launcher.h"

#include <cstdlib>
#include <string>

#include "../errors.h"

namespace gpucmp::mpi {

namespace {
int env_int(const char* openmpi, const char* pmi, int fallback) {
  const char* v = std::getenv(openmpi);
  if (!v) v = std::getenv(pmi);
  return v ? std::atoi(v) : fallback;
}
}  // namespace

bool launched_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE"); }

int launcher_rank() { return env_int("OMPI_COMM_WORLD_RANK", "PMI_RANK", 0); }

void check_not_launched_by_mpirun() {
  const int ranks = env_int("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", 1);
  if (ranks > 1)
    throw UsageError("started as one of " + std::to_string(ranks) +
                     " MPI ranks without --split-over mpi: every rank would run every benchmark "
                     "(give --split RULES --split-over mpi, or run one process)");
}

}  // namespace gpucmp::mpi
