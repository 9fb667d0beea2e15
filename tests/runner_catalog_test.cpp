// The runner libraries as linked into gpucmp-bench (whole): every runner file
// registered itself (GPUCMP_RUNNERS) and every workload (GPUCMP_WORKLOAD), every shared variant has
// a runner on each built API, every OpenCL kernel row has its program and every CUDA kernel row its
// embedded nvcc PTX (the startup row's ptx_load_ms). No device is needed: registration only fills
// tables.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "linked_apis.h"
#include "programs.h"
#include "runner_table.h"
#include "workload_registry.h"
#ifdef GPUCMP_HAVE_CUDA
#include "cross_runners.h"
#include "ptx_load.h"
#endif

namespace gpucmp {
namespace {

void register_all() {
  for (const std::string& api : linked_apis()) register_api_runners(api);
}

// workload -> api -> variants
std::map<std::string, std::map<std::string, std::set<std::string>>> catalog_by_api() {
  std::map<std::string, std::map<std::string, std::set<std::string>>> out;
  for (const CatalogRow& r : runner_catalog()) out[r.workload][r.api].insert(r.variant);
  return out;
}

TEST(RunnerCatalog, EveryWorkloadRegisteredItsRunners) {
  register_all();
  const auto by = catalog_by_api();
  for (const char* w : {"bandwidth", "matrixMul", "cp", "mriq", "mrifhd"}) {
    ASSERT_TRUE(by.count(w)) << w << " registered no runner";
    for (const std::string& api : linked_apis())
      EXPECT_TRUE(by.at(w).count(api)) << w << " " << api;
  }
  EXPECT_NO_THROW(check_runner_catalog(linked_apis()));
}

// The source forms that close compiler-made gaps pair by name (the same
// variant on both APIs); the rows made of OpenCL's PTX or build options only
// (the ftz pass, reduce's register cap) are OpenCL's alone.
TEST(RunnerCatalog, TheGapFormsPairByName) {
  register_all();
  const auto by = catalog_by_api();
  std::vector<std::pair<std::string, std::string>> paired;
  for (const char* math : {"unrollx8", "unrollx8-ieee", "unrollx8-fast"})
    for (const char* form : {"-byvalue", "-prefetch"})
      paired.emplace_back("cp", std::string(math) + form);
  for (const char* w : {"mriq", "mrifhd"})
    for (const char* v : {"precise-prefetch", "fast-prefetch", "precise-byvalue", "fast-byvalue"})
      paired.emplace_back(w, v);
  for (const auto& [w, v] : paired)
    for (const std::string& api : linked_apis())
      EXPECT_TRUE(by.at(w).at(api).count(v)) << w << "/" << api << "/" << v;
  for (const auto& [w, v] : {std::pair{"cp", "unrollx8-fast-ptx-ftz"},
                             {"cp", "unrollx8-fast-byvalue-ptx-ftz"},
                             {"reduce", "pipeline-regcap40"}}) {
    EXPECT_TRUE(by.at(w).at("opencl").count(v)) << w << "/opencl/" << v;
    if (by.at(w).count("cuda")) {
      EXPECT_FALSE(by.at(w).at("cuda").count(v)) << w << "/cuda/" << v;
    }
  }
}

TEST(RunnerCatalog, RegisteringTwiceAddsNothing) {
  register_all();
  const std::size_t rows = runner_catalog().size();
  register_all();
  EXPECT_EQ(runner_catalog().size(), rows);
}

TEST(RunnerCatalog, NoVariantIsRegisteredTwice) {
  register_all();
  std::set<std::string> seen;
  for (const CatalogRow& r : runner_catalog())
    EXPECT_TRUE(seen.insert(r.workload + "/" + r.api + "/" + r.variant).second)
        << r.workload << "/" << r.api << "/" << r.variant;
}

// Fake rows a test adds, removed when it ends: the other tests of this
// process see the real catalog only.
class FakeRows {
 public:
  FakeRows() : keep_(runner_catalog().size()) {}
  ~FakeRows() { truncate_runner_catalog(keep_); }
  FakeRows(const FakeRows&) = delete;
  FakeRows& operator=(const FakeRows&) = delete;

 private:
  std::size_t keep_;
};

// A shared variant one API lacks is an error naming it, not a missing row.
TEST(RunnerCatalog, AMissingSharedRunnerIsAnError) {
  const FakeRows fake;
  add_catalog_row({"fake", "cuda", "v1", true});
  add_catalog_row({"fake", "opencl", "v2", false});
  try {
    check_runner_catalog({"cuda", "opencl"});
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("fake: shared variant v1 has no opencl runner"),
              std::string::npos)
        << e.what();
  }
}

TEST(RunnerCatalog, AWorkloadWithoutAnApisRunnerIsAnError) {
  const FakeRows fake;
  add_catalog_row({"lonely", "opencl", "v", true});
  EXPECT_THROW(check_runner_catalog({"cuda", "opencl"}), std::logic_error);
  EXPECT_NO_THROW(check_runner_catalog({"opencl"}));
}

// Every workload with a runner is registered (GPUCMP_WORKLOAD beside its
// runners() table), once, in a fixed order: a workload file without its
// registration would otherwise run no rows and say nothing.
TEST(WorkloadRegistry, EveryWorkloadOfTheCatalogIsRegistered) {
  register_all();
  const auto workloads = make_registered_workloads();
  EXPECT_NO_THROW(check_workloads_registered(workloads));
  std::vector<std::string> names;
  names.reserve(workloads.size());
  for (const auto& w : workloads) names.push_back(w->name());
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  std::set<std::string> with_runners;
  for (const CatalogRow& r : runner_catalog()) with_runners.insert(r.workload);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), with_runners);
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names.front(), "bandwidth");  // the rank order: bandwidth first, advection last
  EXPECT_EQ(names.back(), "advection");
}

TEST(WorkloadRegistry, ARunnerWithoutItsWorkloadIsAnError) {
  register_all();
  const FakeRows fake;
  add_catalog_row({"unregistered", "opencl", "v", true});
  try {
    check_workloads_registered(make_registered_workloads());
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("workload unregistered has opencl runners but is not "
                                         "registered"),
              std::string::npos)
        << e.what();
  }
}

// Every OpenCL row that builds a kernel has its program (GPUCMP_PROGRAMS, opencl/programs.h):
// bandwidth copies and CLBlast build none.
TEST(RunnerCatalog, EveryOpenClKernelRowHasItsProgram) {
  register_all();
  int checked = 0;
  for (const CatalogRow& r : runner_catalog()) {
    if (r.api != "opencl" || r.workload == "bandwidth" || r.variant == "clblast") continue;
    EXPECT_NO_THROW(opencl::program_spec(r.workload, r.variant)) << r.workload << "/" << r.variant;
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

#ifdef GPUCMP_HAVE_CUDA
// Every CUDA kernel row with a startup benchmark finds nvcc's PTX of its
// workload (<workload in lower case>.ptx), so that the startup row carries
// ptx_load_ms; fast-math builds are not embedded.
TEST(RunnerCatalog, EveryCudaKernelRowHasItsPtx) {
  register_all();
  int checked = 0;
  for (const CatalogRow& r : runner_catalog()) {
    if (r.api != "cuda" || r.workload == "bandwidth" || r.variant == "cublas" ||
        cuda::is_cross_variant(r.variant) || r.variant.find("fast") != std::string::npos)
      continue;
    EXPECT_FALSE(cuda::variant_ptx(r.workload, r.variant).empty())
        << r.workload << "/" << r.variant << ": no embedded nvcc PTX";
    ++checked;
  }
  EXPECT_GT(checked, 8);
}
#endif

}  // namespace
}  // namespace gpucmp
