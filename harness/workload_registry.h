// Workloads register themselves, as runners do (runner_table.h): each
// workload's file states GPUCMP_WORKLOAD(id, rank, factory) beside its
// runners() table, and gpucmp-bench makes every registered workload, in rank
// order (the order of the rows in a run). No list to extend: a workload whose
// file is linked is registered, and the file is linked whenever an API has a
// runner for it (the runner refers to its runners() table).
// check_workloads_registered() makes a runner without its workload an error.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "workload.h"

namespace gpucmp {

using WorkloadFactory = std::unique_ptr<Workload> (*)();

struct WorkloadRegistrar {
  // `rank`: the workload's place in a run (lower first); two workloads of
  // one rank are an error when they are made.
  WorkloadRegistrar(const char* id, int rank, WorkloadFactory make);
};

// A new instance of every registered workload, in rank order. Throws
// std::logic_error when two share a rank.
std::vector<std::unique_ptr<Workload>> make_registered_workloads();

// Throws std::logic_error naming the first workload of the runner catalog
// (runner_table.h) that no registered workload of `workloads` has the name of.
void check_workloads_registered(const std::vector<std::unique_ptr<Workload>>& workloads);

}  // namespace gpucmp

#define GPUCMP_WORKLOAD_CONCAT2(a, b) a##b
#define GPUCMP_WORKLOAD_CONCAT(a, b) GPUCMP_WORKLOAD_CONCAT2(a, b)
// Registers `factory` (a function or captureless lambda returning
// std::unique_ptr<Workload>) at static-initialisation time.
#define GPUCMP_WORKLOAD(id, rank, factory)                                                         \
  static const ::gpucmp::WorkloadRegistrar GPUCMP_WORKLOAD_CONCAT(gpucmp_workload_, id)(#id, rank, \
                                                                                        factory)
