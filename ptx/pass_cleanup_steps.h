// The steps of cleanup's three passes (passes.h: pass_inline,
// pass_promote_slots, pass_copy_prop) and the helpers they share. Internal to
// ptx/: pass_cleanup.cpp runs them.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir.h"

namespace gpucmp::ptx::cleanup {

// Replaces the call block (scope braces, .param declarations, st.param
// arguments, the call, ld.param results) around body[call] by a renamed copy of
// callee's body. `serial` makes the new names unique (%il<serial>_r1,
// $L__il<serial>_BB2_1). Returns "" on success, with `resume` set to the
// first inlined statement (calls in the callee's body are now there); else why
// it refused (nothing changed then).
std::string inline_call(Function& caller, int call, const Function& callee, int serial,
                        int& resume);

// Stack slots [%SP+k] / [%SPL+k] of every __local_depot of f -> registers; the
// depot and its %SP/%SPL set-up go when no access is left. Returns the number
// of slots promoted.
int promote_stack_slots(Function& f, std::vector<std::string>& notes);

// Copies inside basic blocks: `mov a, b` followed by uses of a, and a single
// definition followed by `mov b, a`. Returns the number of movs removed.
int propagate_copies(Function& f);

// ---- shared helpers -------------------------------------------------------------

// The register class of every register declared in a function (body .reg
// declarations at any depth and .reg parameters), with b/u/s of one size
// folded together: ".b32" for %r1 of `.reg .u32 %r<4>`, ".f32", ".pred".
class RegisterClasses {
 public:
  explicit RegisterClasses(const Function& f);
  // "" when the register is not declared.
  std::string of(const std::string& reg) const;

 private:
  std::map<std::string, std::string> singles_;  // %SP -> .b64
  std::map<std::string, std::string> ranges_;   // %r (from %r<5>) -> .b32
};

// Bits of a PTX type name without the dot ("u32" -> 32, "pred" -> 0, "" -> 0).
int type_bits(const std::string& type);
// True for f32 and f64: the types that need .f registers.
bool is_float_type(const std::string& type);

// Calls rename(name) for the guard, every register, memory base and symbol of
// the instruction (read or written) and stores what it returns.
void rename_names(Instruction& ins, const std::function<std::string(const std::string&)>& rename);

Operand register_operand(const std::string& name);
Operand symbol_operand(const std::string& name);
Instruction make_instruction(const std::string& opcode, std::vector<std::string> modifiers,
                             std::vector<Operand> operands);

// Where new declarations go in a body: after the declarations that open it.
int declaration_insertion_point(const Function& f);

// Removes the single (not <N> range) declarators named in `names` from the
// body's declarations, marking declarations left empty in `remove`.
void drop_declarators(Function& f, const std::set<std::string>& names, std::vector<bool>& remove);

// The call statement's callee when it is a direct call (`call.uni (r), f, (a);`).
std::optional<std::string> direct_callee(const Instruction& ins);

}  // namespace gpucmp::ptx::cleanup
