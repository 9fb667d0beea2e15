// gpucmp-bench under mpirun, for the MPI tests (GPUCMP_MPIEXEC: CMake's
// mpiexec, empty in a build without MPI).
#pragma once
#include <gtest/gtest.h>

#include <string>

namespace gpucmp::test {

inline const std::string& mpiexec() {
  static const std::string path = GPUCMP_MPIEXEC;
  return path;
}

// mpirun as root needs the first two; oversubscribe: more ranks than cores is fine here.
inline std::string mpirun(int ranks) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
         "OMPI_MCA_rmaps_base_oversubscribe=1 " +
         mpiexec() + " -np " + std::to_string(ranks) + " " + GPUCMP_BENCH_PATH;
}

}  // namespace gpucmp::test

// Skips the test in a build without MPI.
#define GPUCMP_SKIP_WITHOUT_MPI()                                                  \
  do {                                                                             \
    if (::gpucmp::test::mpiexec().empty())                                         \
      GTEST_SKIP() << "this build has no MPI (scripts/setup.sh installs OpenMPI)"; \
  } while (0)
