// Split rows over MPI (after Takemoto et al., IPSJ 2015):
// `mpirun -np N gpucmp-bench --split RULES --split-over mpi ...` runs one
// device per rank, master-slave as the study did. Every rank parses the same
// options and registers the same rows; rank 0 runs Google Benchmark and, for
// each split row, tells the other ranks what to do (open a row, run jobs,
// download, probe, close). A job: rank 0 sends each rank the input
// rectangles of its part (MPI, derived datatypes), every rank runs its part
// on its device (upload, the launches, download), the ranks send their
// output rectangles back; timed on rank 0's clock, every transfer included.
// The inputs a rank has not received are NaN there and rank 0's outputs are
// poisoned before each validated download, so a lost scatter or gather fails
// validation. Only rank 0 writes reports. Rows end /over:mpi.
#pragma once
#include <string>

#include "api.h"
#include "split_options.h"

namespace gpucmp::mpi {

// Whether this build has MPI (CMake found it).
bool built();

// Starts MPI for --split-over mpi (only the main thread calls MPI) and gives
// this rank its entry of --cuda-split-devices / --cl-split-devices, which
// must then name one device per rank. Without --split-over mpi a start by
// mpirun with more than one rank is a UsageError (every rank would run every
// benchmark). Throws UsageError, also for --split-over mpi in a build
// without MPI.
void start(SplitOptions& split);
// Whether MPI was started; this process's rank (0 when not).
bool active();
int rank();

// An exit code and the error line that goes with it (empty for none).
struct Agreement {
  int code = 0;
  std::string error;
};
// Collective (where MPI was started): every rank's outcome of choosing its
// devices; returns the largest code on every rank, with the error of the
// first rank that failed ("rank N: " before another rank's) on rank 0.
// Without MPI: `mine`.
Agreement checkpoint(const Agreement& mine);

// Collective, after the APIs chose their devices: every rank's split device
// of every API is gathered and the executors are installed
// (split_executor.h). An API some rank has no device for gets none: its
// rows are skipped, naming the rank.
void install_executors(const ApiSet& apis);

// Collective, once, before the benchmarks: each rank says whether it got
// this far (0) or the exit code it stops with; returns the largest, so that
// a rank that failed alone stops every rank. finish() calls it for a rank
// that returned before.
int agree(int code);

// Ranks other than 0: run rank 0's commands until it stops them; returns
// the exit code (0; a failed command is reported by rank 0).
int serve();

// The end of every rank (`code`: its exit code). Rank 0 stops the serving
// ranks, or aborts them all with `code` when an error cut a command short;
// then MPI_Finalize. Does nothing when MPI was not started.
void finish(int code);

}  // namespace gpucmp::mpi
