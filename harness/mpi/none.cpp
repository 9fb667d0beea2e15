// mpi_split.h for a build without MPI: --split-over mpi is a usage error,
// everything else does nothing.
#include "../errors.h"
#include "../halo_link.h"
#include "../mpi_split.h"
#include "launcher.h"

namespace gpucmp::mpi {

bool built() { return false; }

void start(SplitOptions& split) {
  if (split.over == SplitOver::mpi)
    throw UsageError(
        "--split-over mpi: this build has no MPI (scripts/setup.sh installs OpenMPI; "
        "reconfigure and rebuild)");
  check_not_launched_by_mpirun();
}

bool active() { return false; }
int rank() { return launcher_rank(); }
Agreement checkpoint(const Agreement& mine) { return mine; }
void install_executors(const ApiSet&) {}
int agree(int code) { return code; }
int serve() { return kExitOk; }
void finish(int) {}

}  // namespace gpucmp::mpi

namespace gpucmp {
HaloLink& mpi_halo_link() {
  throw Unavailable(
      "the two-GPU rows run one MPI rank per GPU, and this build has no MPI (scripts/setup.sh "
      "installs OpenMPI)");
}
}  // namespace gpucmp
