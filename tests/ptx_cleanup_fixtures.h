// What the pass_cleanup tests share (ptx_pass_cleanup_test.cpp,
// ptx_pass_cleanup_steps_test.cpp, ptx_pass_cleanup_o0_test.cpp): the
// hand-written modules cleanup works on, and how they read a cleaned function.
//
//   kHeader                  the .version/.target/.address_size lines
//   kCalls                   a kernel calling a branching and a void callee, as clang -O0 does
//   depot_kernel(accesses)   a kernel with a 24-byte stack depot, `accesses` its body
//   kSlots                   depot_kernel's accesses: int 0 into a float slot, generic and
//                            .local accesses to one slot, a 64-bit slot
//   kCopies                  a kernel with copies within and across blocks
//   lines(f)                 f's printed body statements, tabs dropped
//   has_line(f, line)        whether `line` is one of them
//   any_note_contains(r, t)  whether one of the report's notes contains t
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "ptx/passes.h"
#include "ptx/printer.h"

namespace gpucmp::ptx::test {

inline const std::string kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// The printed body statements of a function, tabs dropped, one per element.
inline std::vector<std::string> lines(const Function& f) {
  std::vector<std::string> out;
  for (const Statement& s : f.body) {
    std::string text = print(s);
    text.erase(std::remove(text.begin(), text.end(), '\t'), text.end());
    out.push_back(text);
  }
  return out;
}

inline bool has_line(const Function& f, const std::string& line) {
  const auto all = lines(f);
  return std::find(all.begin(), all.end(), line) != all.end();
}

inline bool any_note_contains(const PassReport& r, const std::string& text) {
  return std::any_of(r.notes.begin(), r.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

// A two-way callee with a result (a ret in the middle becomes a branch to the
// end) and a void callee that only synchronizes, as clang -O0 calls them.
inline const char* const kCalls =
    R"(.func (.param .b32 func_retval0) pick(.param .b32 pick_param_0);
.entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<4>; .reg .b64 %rd<2>;
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), pick, (param0);
	ld.param.b32 %r2, [retval0+0];
	} // callseq 0
	st.global.u32 [%rd1], %r2;
	st.global.u32 [%rd1+4], %r1;
	{ .param .b32 param0; st.param.b32 [param0+0], 1; call.uni sync_all, (param0); }
	ret;
}
.func (.param .b32 func_retval0) pick(.param .b32 pick_param_0)
{
	.reg .pred %p<2>; .reg .b32 %r<4>;
	ld.param.u32 %r1, [pick_param_0];
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L__BB1_2;
	mov.u32 %r2, 7;
	st.param.b32 [func_retval0+0], %r2;
	ret;
$L__BB1_2:
	add.s32 %r3, %r1, 1;
	st.param.b32 [func_retval0+0], %r3;
	ret;
}
.func sync_all(.param .b32 sync_all_param_0) { bar.sync 0; ret; }
)";

inline std::string depot_kernel(const std::string& accesses) {
  return kHeader +
         ".entry k(.param .u32 k_param_0)\n{\n\t.local .align 8 .b8 __local_depot0[24];\n"
         "\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<3>;\n"
         "\t.reg .b64 %rd<4>;\n\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n"
         "\tld.param.u32 %r1, [k_param_0];\n" +
         accesses + "\tret;\n}\n";
}

// An int 0 stored into a float variable (as clang -O0 writes `float s = 0`),
// a generic and a .local access to one slot, a 64-bit slot.
inline const char* const kSlots =
    "\tmov.u32 %r2, 0;\n\tst.u32 [%SP+0], %r2;\n\tst.u32 [%SP+4], %r1;\n"
    "\tld.f32 %f1, [%SP+0];\n\tld.local.u32 %r3, [%SPL+4];\n"
    "\tcvt.u64.u32 %rd1, %r3;\n\tst.u64 [%SP+8], %rd1;\n\tld.u64 %rd2, [%SP+8];\n"
    "\tst.global.f32 [%rd2], %f1;\n\tst.global.u32 [%rd2+4], %r3;\n";

// Copies within a block and across blocks; nothing for inline or promote-slots.
inline const char* const kCopies = R"(.entry k(.param .u64 k_param_0)
{
	.reg .pred %p<2>; .reg .b32 %r<9>; .reg .b64 %rd<2>;
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %r1;
	add.s32 %r1, %r1, 1;
	add.s32 %r3, %r2, 5;
	mov.u32 %r4, %r3;
	add.s32 %r5, %r4, %r4;
	mov.u32 %r6, %r3;
	setp.eq.s32 %p1, %r5, 0;
	@%p1 bra $L__BB0_2;
	add.s32 %r7, %r6, 1;
	add.s32 %r8, %r1, 2;
	mov.u32 %r1, %r8;
$L__BB0_2:
	st.global.u32 [%rd1], %r1;
	ret;
}
)";

}  // namespace gpucmp::ptx::test
