// Instruction classes for the instruction-mix tables: one fixed set of names
// shared by PTX stats, SASS stats and diffs.
#pragma once
#include <string>
#include <vector>

#include "ir.h"

namespace gpucmp::ptx {

// Every class name in report order: ld.global st.global ld.shared st.shared
// ld.const ld.param ld.local st.local ld.other st.other fma.f32 fma.f64 mad.f32
// mad.f64 mul.f32 mul.f64 add.f32 add.f64 sub.f32 sub.f64 int.addr sfu div sqrt
// setp bra cvt mov call bar other.
const std::vector<std::string>& class_names();

// The class of one PTX instruction:
//  ld/ldu/st by state space (.global/.shared/.const/.param/.local; else *.other;
//    st.param is st.other);
//  fma/mad/mul/add/sub on .f32/.f64 -> fma.f32, mad.f64, ...;
//  integer add/sub/mul/mad/mul24/mad24/shl and any cvta -> int.addr;
//  sin cos rsqrt ex2 lg2 tanh and sqrt/rcp .approx -> sfu; div and rcp
//  (non-approx) -> div; sqrt (non-approx) -> sqrt; setp/set -> setp; bra/brx ->
//  bra; cvt -> cvt; mov -> mov; call -> call; bar/barrier -> bar; else other.
std::string instruction_class(const Instruction& ins);

}  // namespace gpucmp::ptx
