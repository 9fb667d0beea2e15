// The cpasync pass (ptx/passes.h pass_cpasync): which loops it takes as a
// work-group copy and which it leaves, where the waits go (before every
// barrier, call and exit but the copy's own barrier), the forms and targets
// it refuses, and NVIDIA's OpenCL PTX of advection's async kernel (H200): its
// 60 copy loops become cp.async and the module still assembles (ptxas, when
// found). cpasync-nobar: the same, and each copy's own barrier goes.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "ptx/files.h"
#include "ptx/parser.h"
#include "ptx/pass_registry.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptxas_check.h"

namespace gpucmp::ptx {
namespace {

// A kernel with a shared ring and a copy loop as NVIDIA's OpenCL writes one:
// `loop` is the loop's body between its label and its back branch, `after`
// what follows its barrier.
std::string kernel(const std::string& loop, const std::string& after = "",
                   const std::string& target = "sm_90") {
  return ".version 9.0\n.target " + target +
         "\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n"
         "\t.reg .pred %p<4>;\n\t.reg .f32 %f<12>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<24>;\n"
         "\t.shared .align 16 .b8 k_$_ring[4096];\n"
         "\tld.param.u64 %rd1, [k_param_0];\n\tmov.u32 %r1, %tid.x;\n"
         "\tcvt.u64.u32 %rd2, %r1;\n\tmov.u64 %rd3, %rd2;\n"
         "$L__BB0_1:\n" +
         loop +
         "\tadd.s64 %rd3, %rd3, 64;\n\tsetp.lt.u64 %p1, %rd3, 1000;\n\t@%p1 bra $L__BB0_1;\n"
         "$L__BB0_2:\n\tbar.sync 0;\n" +
         after + "\tret;\n}\n";
}

// The copy: grid element rd3 into ring element rd3.
const char* kCopy =
    "\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %rd1, %rd4;\n\tld.global.f32 %f1, [%rd5];\n"
    "\tmov.u64 %rd6, k_$_ring;\n\tadd.s64 %rd7, %rd6, %rd4;\n\tst.shared.f32 [%rd7], %f1;\n";

// What a thread reads after the wait's barrier.
const char* kRead =
    "\tbar.sync 0;\n\tmov.u64 %rd8, k_$_ring;\n\tld.shared.f32 %f11, [%rd8+4];\n"
    "\tst.global.f32 [%rd1], %f11;\n";

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

PassReport run(Module& m, const std::string& pass = "cpasync") {
  std::vector<PassReport> reports;
  run_passes(m, {pass}, PassContext{}, &reports);
  return reports.at(0);
}

TEST(PassCpAsync, CopyLoopBecomesCpAsyncWaitedAtTheNextBarrier) {
  Module m = parse(kernel(kCopy, kRead), "copy.ptx");
  const PassReport r = run(m);
  EXPECT_EQ(r.changed, 1);
  const std::string text = print(m);
  EXPECT_EQ(count(text, "ld.global"), 0) << text;
  EXPECT_EQ(count(text, "st.shared"), 0) << text;
  EXPECT_NE(text.find("cp.async.ca.shared.global \t[%rd7], [%rd5], 4;"), std::string::npos) << text;
  // The copy's own barrier has no wait; the wait's barrier and ret have one each.
  EXPECT_EQ(count(text, "cp.async.wait_all;"), 2) << text;
  const std::size_t own = text.find("bar.sync");
  EXPECT_EQ(text.rfind("cp.async.wait_all;", own), std::string::npos) << text;
  const std::size_t second = text.find("bar.sync", own + 1);
  EXPECT_LT(text.find("cp.async.wait_all;", own), second) << text;
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("1 copies in 1 loops"), std::string::npos) << r.notes[0];
  EXPECT_NE(r.notes[0].find("2 cp.async.wait_all"), std::string::npos) << r.notes[0];
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, "sm_90", output)) << output;
}

// cpasync-nobar: the same rewrite, then the copy's own barrier removed; the
// wait's barrier stays, waited for.
TEST(PassCpAsync, NoBarRemovesTheCopysOwnBarrierOnly) {
  Module m = parse(kernel(kCopy, kRead), "copy.ptx");
  const PassReport r = run(m, "cpasync-nobar");
  EXPECT_EQ(r.pass, "cpasync-nobar");
  EXPECT_EQ(r.changed, 1);
  const std::string text = print(m);
  EXPECT_EQ(count(text, "bar.sync"), 1) << text;
  EXPECT_EQ(count(text, "cp.async.ca.shared.global"), 1) << text;
  const std::size_t wait = text.find("cp.async.wait_all;");
  ASSERT_NE(wait, std::string::npos) << text;
  EXPECT_LT(wait, text.find("bar.sync")) << text;
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("1 copy barriers removed"), std::string::npos) << r.notes[0];
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, "sm_90", output)) << output;
  // A module without a copy loop keeps every barrier.
  Module plain = parse(kernel("\tadd.s64 %rd4, %rd3, 1;\n", kRead), "plain.ptx");
  const std::string before = print(plain);
  EXPECT_EQ(run(plain, "cpasync-nobar").changed, 0);
  EXPECT_EQ(print(plain), before);
}

TEST(PassCpAsync, VectorCopiesKeepTheirWidth) {
  const std::string loop =
      "\tshl.b64 %rd4, %rd3, 4;\n\tadd.s64 %rd5, %rd1, %rd4;\n"
      "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd5];\n"
      "\tld.global.v2.f32 {%f5, %f6}, [%rd5+16];\n"
      "\tmov.u64 %rd6, k_$_ring;\n\tadd.s64 %rd7, %rd6, %rd4;\n"
      "\tst.shared.v4.f32 [%rd7], {%f1, %f2, %f3, %f4};\n"
      "\tst.shared.v2.f32 [%rd7+16], {%f5, %f6};\n";
  Module m = parse(kernel(loop, kRead), "vector.ptx");
  EXPECT_EQ(run(m).changed, 2);
  const std::string text = print(m);
  EXPECT_NE(text.find("cp.async.ca.shared.global \t[%rd7], [%rd5], 16;"), std::string::npos)
      << text;
  EXPECT_NE(text.find("cp.async.ca.shared.global \t[%rd7+16], [%rd5+16], 8;"), std::string::npos)
      << text;
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, "sm_90", output)) << output;
}

// Each of these loops is not only a copy, or not one the pass can make
// asynchronous: the module must come back as it went in.
TEST(PassCpAsync, LeavesEverythingElseAlone) {
  const std::string load = "\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %rd1, %rd4;\n";
  const std::string ring = "\tmov.u64 %rd6, k_$_ring;\n\tadd.s64 %rd7, %rd6, %rd4;\n";
  const struct {
    const char* why;
    std::string loop;
  } cases[] = {
      {"the value is also computed with",
       load + "\tld.global.f32 %f1, [%rd5];\n\tadd.f32 %f2, %f1, %f1;\n" + ring +
           "\tst.shared.f32 [%rd7], %f1;\n\tst.global.f32 [%rd5], %f2;\n"},
      {"the store stores a computed value",
       load + "\tld.global.f32 %f1, [%rd5];\n\tadd.f32 %f2, %f1, %f1;\n" + ring +
           "\tst.shared.f32 [%rd7], %f2;\n"},
      {"a guarded store",
       load + "\tld.global.f32 %f1, [%rd5];\n" + ring + "\t@%p2 st.shared.f32 [%rd7], %f1;\n"},
      {"the load's address changes before the store",
       load + "\tld.global.f32 %f1, [%rd5];\n\tadd.s64 %rd5, %rd5, 4;\n" + ring +
           "\tst.shared.f32 [%rd7], %f1;\n"},
      {"a barrier inside the loop", load + "\tld.global.f32 %f1, [%rd5];\n\tbar.sync 0;\n" + ring +
                                        "\tst.shared.f32 [%rd7], %f1;\n"},
      {"a volatile load",
       load + "\tld.volatile.global.f32 %f1, [%rd5];\n" + ring + "\tst.shared.f32 [%rd7], %f1;\n"},
      {"a load of two bytes",
       load + "\tld.global.u16 %r2, [%rd5];\n" + ring + "\tst.shared.u16 [%rd7], %r2;\n"},
      {"a store of another width",
       load + "\tld.global.f32 %f1, [%rd5];\n" + ring + "\tst.shared.v2.f32 [%rd7], {%f1, %f1};\n"},
      {"a load whose value is not stored", load + "\tld.global.f32 %f1, [%rd5];\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.why);
    Module m = parse(kernel(c.loop, kRead), "left.ptx");
    const std::string before = print(m);
    EXPECT_EQ(run(m).changed, 0);
    EXPECT_EQ(print(m), before);
  }
}

TEST(PassCpAsync, TargetsWithoutCpAsyncAreLeftAlone) {
  for (const auto& [target, version, why] :
       {std::tuple<std::string, std::string, std::string>{"sm_75", "9.0", "sm_80"},
        {"sm_90", "6.4", "PTX ISA 6.4"}}) {
    SCOPED_TRACE(target + " " + version);
    std::string text = kernel(kCopy, kRead, target);
    text.replace(text.find("9.0"), 3, version);
    Module m = parse(text, "old.ptx");
    const std::string before = print(m);
    const PassReport r = run(m);
    EXPECT_EQ(r.changed, 0);
    EXPECT_EQ(print(m), before);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find(why), std::string::npos) << r.notes[0];
  }
}

// NVIDIA's OpenCL PTX of advection async (H200, driver 580.159.04): 60
// work-group copies, each a loop and a barrier, and 60 barriers of
// wait_group_events and the kernel's own.
TEST(PassCpAsync, AdvectionAsyncFromTheH200) {
  Module m = parse(read_text_file(std::string(GPUCMP_PTX_FIXTURES) +
                                  "/gpu/h200-driver580.159.04-nvcc13.0/opencl/advection-async.ptx"),
                   "advection-async.ptx");
  const std::string before = print(m);
  ASSERT_EQ(count(before, "ld.global.f32"), 60);
  ASSERT_EQ(count(before, "bar.sync"), 120);
  const PassReport r = run(m);
  const std::string text = print(m);
  EXPECT_EQ(r.changed, 60);
  EXPECT_EQ(count(text, "ld.global"), 0);
  EXPECT_EQ(count(text, "cp.async.ca.shared.global"), 60);
  EXPECT_EQ(count(text, "bar.sync"), 120);
  // Every barrier but the 60 copies' own, and each exit, waits.
  EXPECT_EQ(count(text, "cp.async.wait_all;"), 60 + count(text, "\tret;"));
  std::string output;
  EXPECT_TRUE(ptxas_assembles(text, m.sm_target(), output)) << output;

  // cpasync-nobar: the 60 copies' own barriers go, the other 60 stay, waited for.
  Module nobar = parse(before, "advection-async.ptx");
  const PassReport rn = run(nobar, "cpasync-nobar");
  const std::string nobar_text = print(nobar);
  EXPECT_EQ(rn.changed, 60);
  EXPECT_EQ(count(nobar_text, "bar.sync"), 60);
  EXPECT_EQ(count(nobar_text, "cp.async.wait_all;"), 60 + count(nobar_text, "\tret;"));
  EXPECT_TRUE(ptxas_assembles(nobar_text, nobar.sm_target(), output)) << output;
}

}  // namespace
}  // namespace gpucmp::ptx
