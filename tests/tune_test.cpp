// --tune (harness/tune.h): the workloads' families and gpucmp-bench's best rows.
// In process, with the runner libraries linked whole as gpucmp-bench links
// them: every own variant of a tuned workload has a family and no cross-run,
// control or vendor library has one, so that a new variant cannot be left
// out (or let in) unnoticed. Against the built gpucmp-bench: --tune adds
// exactly one best row per family and API, after its candidates, and
// nothing else; a best row runs on the default OpenCL device (PoCL without
// a GPU), validated, its label naming its choice; --tune takes no value.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench_process.h"
#include "linked_apis.h"
#include "runner_table.h"
#include "tune_family.h"
#include "workload_registry.h"

namespace gpucmp {
namespace {

using nlohmann::json;

// The workloads whose families --tune knows (scripts/gpucmp_report/api_best.py's
// FAMILIES are the reports' account of the same rows).
const std::set<std::string> kTuned = {"matrixMul", "reduce",    "scan",   "cp",     "mriq",
                                      "mrifhd",    "advection", "lavamd", "bodies", "heartwall"};

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Not an API's own implementation (api_best.py's NOT_OWN and VENDOR, and
// gpucmp's PTX chains and passes on OpenCL's PTX: a tool no OpenCL user has).
bool not_own(const std::string& variant) {
  for (const char* v : {"cublas", "clblast", "cub"})
    if (variant == v) return true;
  for (const char* tail :
       {"-opencl-ptx", "-ldg", "-maxl1", "-cpasync", "-cpasync-wait0", "-cpasync-4b", "-4b-wait0"})
    if (ends_with(variant, tail)) return true;
  for (const char* part : {"-ptx-", "-auto-", "-hand-"})
    if (variant.find(part) != std::string::npos) return true;
  return false;
}

class Workloads {
 public:
  Workloads() {
    for (const std::string& api : linked_apis()) register_api_runners(api);
    owned_ = make_registered_workloads();
    for (const auto& w : owned_) by_name_[w->name()] = w.get();
  }
  const Workload* find(const std::string& name) const {
    const auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
  }

 private:
  std::vector<std::unique_ptr<Workload>> owned_;
  std::map<std::string, const Workload*> by_name_;
};

const Workloads& workloads() {
  static const Workloads w;
  return w;
}

TEST(TuneFamilies, EveryOwnVariantHasOneAndNoOtherDoes) {
  std::map<std::string, std::set<std::string>> tuned_apis;  // workload -> APIs with a family
  (void)workloads();  // registers the runners: the catalog is empty before
  ASSERT_FALSE(runner_catalog().empty());
  for (const CatalogRow& r : runner_catalog()) {
    const Workload* w = workloads().find(r.workload);
    ASSERT_NE(w, nullptr) << r.workload;
    const std::optional<TuneFamily> family = w->tune_family({r.workload, r.api, r.variant, {}});
    if (family) tuned_apis[r.workload].insert(r.api);
    if (!kTuned.count(r.workload)) {
      EXPECT_FALSE(family) << r.workload << "/" << r.api << "/" << r.variant
                           << ": a family of a workload this test does not list as tuned";
      continue;
    }
    EXPECT_EQ(family.has_value(), !not_own(r.variant))
        << r.workload << "/" << r.api << "/" << r.variant
        << (family ? ": a cross-run, control or vendor row is a candidate"
                   : ": an own variant in no family (add it to the workload's tune_family)");
  }
  for (const std::string& w : kTuned)
    for (const std::string& api : linked_apis())
      EXPECT_TRUE(tuned_apis[w].count(api)) << w << " has no family on " << api;
}

TEST(TuneFamilies, ParametersOutsideTheProblemMakeNoCandidate) {
  const Workload* scan = workloads().find("scan");
  ASSERT_NE(scan, nullptr);
  const auto alpha = scan->tune_family(
      {"scan", "opencl", "alpha", {{"type", "int32"}, {"n", "1024"}, {"alpha", "8"}}});
  ASSERT_TRUE(alpha);
  EXPECT_EQ(best_row_name("scan", "opencl", *alpha).str(), "scan/opencl/best/type:int32/n:1024");
  EXPECT_EQ(tuned_choice({"scan", "opencl", "alpha", {{"type", "int32"}, {"alpha", "8"}}}, *alpha),
            "alpha/alpha:8");
  EXPECT_FALSE(scan->tune_family(
      {"scan", "opencl", "onepass", {{"type", "int32"}, {"n", "1024"}, {"poll", "spin"}}}));
  const Workload* advection = workloads().find("advection");
  ASSERT_NE(advection, nullptr);
  EXPECT_FALSE(advection->tune_family(
      {"advection", "cuda", "plain", {{"nx", "64"}, {"ny", "64"}, {"gpus", "2"}}}));
  const Workload* cp = workloads().find("cp");
  ASSERT_NE(cp, nullptr);
  const auto ieee = cp->tune_family({"cp", "cuda", "base", {{"grid", "128"}, {"atoms", "20"}}});
  ASSERT_TRUE(ieee);
  EXPECT_EQ(best_row_name("cp", "cuda", *ieee).str(), "cp/cuda/best/grid:128/atoms:20/math:ieee");
}

std::vector<BenchName> listed(const std::string& args) {
  const test::ProcessResult r = test::run_bench("--size quick --benchmark_list_tests " + args);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::vector<BenchName> names;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);)
    if (const auto name = parse_bench_name(line)) names.push_back(*name);
  return names;
}

TEST(TuneRows, OneBestRowPerFamilyAndApiAfterItsCandidates) {
  const std::vector<BenchName> plain = listed("");
  const std::vector<BenchName> tuned = listed("--tune");
  ASSERT_FALSE(tuned.empty());
  std::vector<std::string> without_best, plain_names;
  std::map<std::string, std::size_t> best_at;         // best row -> its index
  std::map<std::string, std::size_t> last_candidate;  // best row -> its last candidate's index
  for (std::size_t i = 0; i < tuned.size(); ++i) {
    const BenchName& n = tuned[i];
    if (n.variant == "best") {
      EXPECT_TRUE(kTuned.count(n.workload)) << n.str();
      EXPECT_TRUE(best_at.emplace(n.str(), i).second) << n.str() << " registered twice";
      continue;
    }
    without_best.push_back(n.str());
    const Workload* w = workloads().find(n.workload);
    if (!w) continue;  // startup/... and the like
    if (const auto family = w->tune_family(n)) {
      EXPECT_FALSE(not_own(n.variant)) << n.str();
      last_candidate[best_row_name(n.workload, n.api, *family).str()] = i;
    }
  }
  for (const BenchName& n : plain) plain_names.push_back(n.str());
  EXPECT_EQ(without_best, plain_names) << "--tune changed the other rows";
  EXPECT_EQ(best_at.size(), last_candidate.size());
  for (const auto& [best, candidate] : last_candidate) {
    ASSERT_EQ(best_at.count(best), 1u) << best << ": a family without its best row";
    EXPECT_GT(best_at.at(best), candidate) << best << " registered before a candidate";
  }
  std::set<std::string> tuned_here;  // every tuned workload has its best rows
  for (const auto& [best, at] : best_at) tuned_here.insert(parse_bench_name(best)->workload);
  EXPECT_EQ(tuned_here, kTuned);
}

TEST(TuneRows, ReduceBestRowRunsValidatedAndNamesItsChoice) {
  const std::string out = test::temp_dir("tune") + "/out.json";
  const test::ProcessResult r = test::run_bench(
      "--size quick --samples 3 --startup off --progress off --tune --reduce-n 4096 "
      "--reduce-type int32 '--benchmark_filter=^reduce/opencl/best/' --benchmark_out=" +
      out + " --benchmark_out_format=json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  const json report = json::parse(in, nullptr, false);
  ASSERT_TRUE(report.is_object() && report.contains("benchmarks")) << r.output;
  ASSERT_EQ(report["benchmarks"].size(), 1u) << r.output;
  const json& b = report["benchmarks"][0];
  EXPECT_EQ(parse_bench_name(b["name"].get<std::string>())->str(),
            "reduce/opencl/best/type:int32/n:4096");
  EXPECT_FALSE(b.value("error_occurred", false)) << b.value("error_message", "");
  EXPECT_FALSE(b.value("skipped", false)) << r.output;
  EXPECT_GE(b.value("max_rel_err", -1.0), 0.0) << r.output;
  const std::string label = b.value("label", "");
  const std::set<std::string> choices = {"tree", "cascading", "pipeline", "pipeline-regcap40"};
  const auto tuned = label.find("tuned=");
  ASSERT_EQ(tuned, 0u) << label;
  const std::string choice = label.substr(6, label.find(';') - 6);
  EXPECT_TRUE(choices.count(choice)) << label;
  EXPECT_NE(label.find("; candidates=4; timed="), std::string::npos) << label;
  EXPECT_EQ(b.value("tune_candidates", -1.0), 4.0);
  EXPECT_GE(b.value("tune_timed", -1.0), 1.0);
  EXPECT_LE(b.value("tune_timed", -1.0), 4.0);
  // A candidate left out (the register cap is NVIDIA's option) says so in one line.
  if (b.value("tune_timed", -1.0) < 4.0) {
    EXPECT_NE(r.output.find("gpucmp-bench: tune: reduce/opencl/best/type:int32/n:4096: left out"),
              std::string::npos)
        << r.output;
  }
}

TEST(TuneRows, TuneTakesNoValue) {
  for (const char* bad : {"--tune=off", "--tune=0", "--tune off"}) {
    const test::ProcessResult r =
        test::run_bench(std::string("--size quick ") + bad + " --benchmark_list_tests");
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
    EXPECT_NE(r.output.find("gpucmp-bench: error: "), std::string::npos) << bad << "\n" << r.output;
  }
}

}  // namespace
}  // namespace gpucmp
