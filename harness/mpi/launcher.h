// What mpirun tells a process before MPI starts (its environment), for
// builds with and without MPI alike.
#pragma once

namespace gpucmp::mpi {

// This process's rank as the launcher set it (OpenMPI, or PMI); 0 if none.
int launcher_rank();
// Whether a launcher (mpirun, mpiexec, srun) started this process: MPI
// started without one has one rank and its split rows one device.
bool launched_by_mpirun();
// A UsageError when the launcher started more than one rank of a run that
// did not ask for --split-over mpi: every rank would run every benchmark.
void check_not_launched_by_mpirun();

}  // namespace gpucmp::mpi
