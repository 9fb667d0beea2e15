// The source forms and build options that close compiler-made gaps, run
// through OpenCL on the default device (PoCL without a GPU) and validated
// against the CPU reference: cp's atoms by value and read a step ahead, the
// MRI k-values read a step ahead, read as float4 and passed by value, reduce's
// pipeline with NVIDIA's register cap (on another driver the plain build).
// Sizes with ragged ends: 300 atoms (a partial by-value chunk, a constant chunk
// of 300) and 1031 k-values (tiles of 7 for Q and FHD: an odd one and pairs,
// three leftovers and four; by value, chunks of the device's count and a
// partial last one).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "bench_process.h"
#include "naming.h"
#include "workloads/parboil/mri.h"

namespace gpucmp::test {
namespace {

using nlohmann::json;

// One run of the forms' OpenCL rows (and the rows they are forms of); the
// benchmarks of its JSON by name, without Google Benchmark's suffixes.
const std::map<std::string, json>& forms_run() {
  static const std::map<std::string, json> rows = [] {
    const std::string dir = temp_dir("gap-forms");
    for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd})
      mri::write_parboil_input(dir + "/" + mri::workload_name(kind) + ".bin",
                               mri::generate(kind, 1031, 8), kind);
    const std::string out = dir + "/out.json";
    const ProcessResult r = run_bench(
        "--size quick --samples 3 --startup off --cp-atoms 300 --reduce-n 100000 "
        "--reduce-type int32,float --mriq-input " +
        dir + "/mriq.bin --mrifhd-input " + dir +
        "/mrifhd.bin "
        "'--benchmark_filter=^(cp|mriq|mrifhd|reduce)/opencl/(unrollx8(-ieee|-fast)?"
        "(-byvalue|-prefetch)?|(precise|fast)(-prefetch|-vec4|-byvalue)?|pipeline(-regcap40)?)/' "
        "--benchmark_out=" +
        out + " --benchmark_out_format=json");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::map<std::string, json> by_name;
    std::ifstream in(out);
    const json report = json::parse(in, nullptr, false);
    if (report.is_object() && report.contains("benchmarks"))
      for (const json& b : report["benchmarks"])
        if (const auto name = parse_bench_name(b["name"].get<std::string>()))
          by_name[name->workload + "/" + name->variant + "/" + name->params.at(0).value] = b;
    return by_name;
  }();
  return rows;
}

TEST(GapForms, EveryFormRanValidated) {
  std::set<std::string> want;
  for (const char* math : {"unrollx8", "unrollx8-ieee", "unrollx8-fast"})
    for (const char* form : {"", "-byvalue", "-prefetch"})
      want.insert(std::string("cp/") + math + form + "/128");
  for (const char* w : {"mriq", "mrifhd"})
    for (const char* v : {"precise", "fast", "precise-prefetch", "fast-prefetch", "precise-vec4",
                          "fast-vec4", "precise-byvalue", "fast-byvalue"})
      want.insert(std::string(w) + "/" + v + "/1031");
  for (const char* type : {"int32", "float"}) {
    want.insert(std::string("reduce/pipeline/") + type);
    want.insert(std::string("reduce/pipeline-regcap40/") + type);
  }
  std::set<std::string> ran;
  for (const auto& [name, b] : forms_run()) {
    ran.insert(name);
    EXPECT_FALSE(b.value("error_occurred", false)) << name << ": " << b.value("error_message", "");
    ASSERT_TRUE(b.contains("max_rel_err")) << name;
    EXPECT_GE(b["max_rel_err"].get<double>(), 0.0) << name;
    EXPECT_EQ(b.value("commands_counted", -1.0), b.value("commands_per_launch", -2.0)) << name;
  }
  EXPECT_EQ(ran, want);
}

// A by-value row's launches each take the chunk its program was built with,
// from the device's parameter limit: ceil(300 / chunk) kernels after the clear.
TEST(GapForms, ByValueRowsSayTheirChunk) {
  int rows = 0;
  for (const char* v : {"unrollx8-byvalue", "unrollx8-ieee-byvalue", "unrollx8-fast-byvalue"}) {
    const auto it = forms_run().find(std::string("cp/") + v + "/128");
    ASSERT_NE(it, forms_run().end()) << v;
    const json& b = it->second;
    ASSERT_TRUE(b.contains("atoms_per_launch")) << v;
    const int atoms = int(b["atoms_per_launch"].get<double>());
    ASSERT_GE(atoms, 1) << v;
    EXPECT_EQ(atoms & (atoms - 1), 0) << v << ": a power of two";
    const int chunks = (300 + atoms - 1) / atoms;  // the grid's clear, then a launch a chunk
    EXPECT_EQ(b["commands_per_launch"].get<double>(), double(1 + chunks)) << v;
    EXPECT_NE(
        b.value("label", "").find("device_options=-DCP_BYVALUE_ATOMS=" + std::to_string(atoms)),
        std::string::npos)
        << v << ": " << b.value("label", "");
    ++rows;
  }
  EXPECT_EQ(rows, 3);
  EXPECT_FALSE(forms_run().at("cp/unrollx8-prefetch/128").contains("atoms_per_launch"));
}

// An MRI by-value row's launches each take the chunk its program was built
// with: ceil(1031 / chunk) kernels after the two outputs' clears, no per-k
// kernel, no copy. The chunk is the largest count of records (16 bytes Q, 20
// FHD) that fits beside 48 bytes of other arguments in one parameter limit:
// Q's and FHD's counts must come from the same limit of the device.
TEST(GapForms, MriByValueRowsSayTheirChunk) {
  std::map<std::string, int> chunk;  // workload -> k-values a launch
  for (const char* w : {"mriq", "mrifhd"})
    for (const char* v : {"precise-byvalue", "fast-byvalue"}) {
      const std::string row = std::string(w) + "/" + v + "/1031";
      const auto it = forms_run().find(row);
      ASSERT_NE(it, forms_run().end()) << row;
      const json& b = it->second;
      ASSERT_TRUE(b.contains("k_per_launch")) << row;
      const int k = int(b["k_per_launch"].get<double>());
      ASSERT_GE(k, 1) << row;
      const int launches = (1031 + k - 1) / k;  // the two clears, then a kernel a chunk
      EXPECT_EQ(b["commands_per_launch"].get<double>(), double(2 + launches)) << row;
      EXPECT_NE(b.value("label", "").find("device_options=-DK_BYVALUE=" + std::to_string(k)),
                std::string::npos)
          << row << ": " << b.value("label", "");
      if (chunk.count(w)) {
        EXPECT_EQ(chunk[w], k) << row << ": both math modes alike";
      }
      chunk[w] = k;
    }
  ASSERT_EQ(chunk.size(), 2u);
  // The limits each count allows: [48 + 16 q, 48 + 16 (q + 1)) for Q (unless
  // capped at its tile) and the same with 20 for FHD; one limit lies in both.
  const long long q = chunk["mriq"], fh = chunk["mrifhd"];
  const long long low = std::max(48 + 16 * q, 48 + 20 * fh);
  const long long high = std::min(q < mri::kTileQ ? 48 + 16 * (q + 1) : 1LL << 40,
                                  fh < mri::kTileFH ? 48 + 20 * (fh + 1) : 1LL << 40);
  EXPECT_LT(low, high) << "Q " << q << ", FHD " << fh << ": not from one parameter limit";
  EXPECT_FALSE(forms_run().at("mriq/precise/1031").contains("k_per_launch"));
}

TEST(GapForms, RegisterCappedRowSaysItsOption) {
  for (const char* type : {"int32", "float"}) {
    const json& b = forms_run().at(std::string("reduce/pipeline-regcap40/") + type);
    EXPECT_NE(b.value("label", "").find("nvidia_options=-cl-nv-maxrregcount=40"), std::string::npos)
        << b.value("label", "");
    EXPECT_EQ(forms_run()
                  .at(std::string("reduce/pipeline/") + type)
                  .value("label", "")
                  .find("nvidia_options"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace gpucmp::test
