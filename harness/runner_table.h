// The one way a workload takes runners (docs/DESIGN.md "Adding a paired
// workload"): each workload owns a RunnerTable of its Problem and Variant
// types, and an API adds (api, variants, factory) to it with RunnerTable::add,
// the only registration call. Every row also lands in the harness-wide
// runner_catalog() (workload, api, variant, shared), which the harness checks
// (check_runner_catalog: a shared variant without a runner on a built API is
// an error, not a missing row) and the tests read.
//
// An API's runner file registers itself at static-initialisation time with
// GPUCMP_RUNNERS(api) { ... } (no list to extend: the API libraries are linked
// whole, see CMakeLists.txt); register_api_runners(api) then runs them in a
// fixed order (by file path), once, before any benchmark is registered.
// GPUCMP_CROSS_RUNNERS(api) { ... } registers rows made from another API's
// code (CUDA's cross-run rows): they run after all of the API's own.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runner.h"

namespace gpucmp {

struct CatalogRow {
  std::string workload;  // "cp"
  std::string api;       // "cuda"
  std::string variant;   // "unrollx8"
  bool shared = false;   // a variant every built API must have
};
const std::vector<CatalogRow>& runner_catalog();
void add_catalog_row(CatalogRow row);
// Tests only: forgets the rows added after the first `keep` (a test that adds
// fake rows leaves the catalog as it found it).
void truncate_runner_catalog(std::size_t keep);

// Throws std::logic_error naming the first shared variant of a workload that
// one of `apis` has no runner for, or a workload without any runner on one
// of them.
void check_runner_catalog(const std::vector<std::string>& apis);

// Runner registration functions of an API, kept by their source file so that
// the run order does not depend on the linker's.
using RunnerRegistration = void (*)();
struct RunnerRegistrar {
  RunnerRegistrar(const char* api, const char* file, RunnerRegistration fn, int phase);
};
// Runs every registration of `api` once (later calls do nothing).
void register_api_runners(const std::string& api);

template <class Problem, class Variant>
class RunnerTable {
 public:
  using Factory = std::function<std::unique_ptr<Runner>(Problem&, const Variant&)>;
  struct Row {
    std::string api;
    Variant variant;
    Factory make;
  };

  // `workload`: its benchmark name part; `shared`: the variants both APIs
  // must run (the pairs of the comparison).
  RunnerTable(std::string workload, std::vector<Variant> shared)
      : workload_(std::move(workload)), shared_(std::move(shared)) {}

  const std::vector<Variant>& shared() const { return shared_; }

  // `api` runs each of `variants` (shared ones or its own) through `make`.
  void add(const std::string& api, const std::vector<Variant>& variants, Factory make) {
    for (const Variant& v : variants) {
      bool is_shared = false;
      for (const Variant& s : shared_) is_shared = is_shared || s.name == v.name;
      add_catalog_row({workload_, api, v.name, is_shared});
      rows_.push_back({api, v, make});
    }
  }

  const std::vector<Row>& rows() const { return rows_; }
  const std::string& workload() const { return workload_; }

 private:
  std::string workload_;
  std::vector<Variant> shared_;
  std::vector<Row> rows_;
};

}  // namespace gpucmp

#define GPUCMP_RUNNERS_CAT2(a, b) a##b
#define GPUCMP_RUNNERS_CAT(a, b) GPUCMP_RUNNERS_CAT2(a, b)
#define GPUCMP_RUNNERS_PHASE(api, phase)                                                  \
  static void GPUCMP_RUNNERS_CAT(gpucmp_register_runners_, __LINE__)();                   \
  static const ::gpucmp::RunnerRegistrar GPUCMP_RUNNERS_CAT(gpucmp_registrar_, __LINE__)( \
      api, __FILE__, &GPUCMP_RUNNERS_CAT(gpucmp_register_runners_, __LINE__), phase);     \
  static void GPUCMP_RUNNERS_CAT(gpucmp_register_runners_, __LINE__)()
// GPUCMP_RUNNERS("cuda") { cp::runners().add("cuda", cp::variants(), ...); }
#define GPUCMP_RUNNERS(api) GPUCMP_RUNNERS_PHASE(api, 0)
#define GPUCMP_CROSS_RUNNERS(api) GPUCMP_RUNNERS_PHASE(api, 1)
