// APIs register themselves, as workloads and runners do: cuda/cuda_api.cpp
// and opencl/opencl_api.cpp each state GPUCMP_API(name, rank, factory,
// install) beside their Api, and gpucmp-bench makes every registered API in
// rank order, registers its runners (runner_table.h) and calls its install
// hook (the bridges of cross_ptx.h). The entry point names no API: the build
// tells it which APIs it linked (GPUCMP_BUILT_APIS), and an API that was
// linked but did not register stops the program with a message, so that a
// missing registration can never drop an API's rows silently.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "api.h"

namespace gpucmp {

using ApiFactory = std::unique_ptr<Api> (*)();
using ApiInstall = void (*)();

struct ApiRegistrar {
  // `rank`: the API's place among the APIs (lower first: its rows come
  // first). `install` (may be null) runs once, after the API's runners are
  // registered.
  ApiRegistrar(const char* name, int rank, ApiFactory make, ApiInstall install);
};

// Throws std::logic_error naming the first API of `built` (the APIs the
// program was linked with) missing from `registered`, or the first name
// registered twice.
void check_apis_registered(const std::vector<std::string>& built,
                           const std::vector<std::string>& registered);

// A new instance of every registered API in rank order, after
// check_apis_registered(built, ...): each API's runners registered and its
// install hook run.
std::vector<std::unique_ptr<Api>> make_registered_apis(const std::vector<std::string>& built);

}  // namespace gpucmp

#define GPUCMP_API_CONCAT2(a, b) a##b
#define GPUCMP_API_CONCAT(a, b) GPUCMP_API_CONCAT2(a, b)
// Registers the API `name` (an identifier: cuda, opencl) at static-initialisation time.
#define GPUCMP_API(name, rank, factory, install)                                                 \
  static const ::gpucmp::ApiRegistrar GPUCMP_API_CONCAT(gpucmp_api_, name)(#name, rank, factory, \
                                                                           install)
