// Part 1 of pass_shared32 (passes.h): which 64-bit registers hold .shared
// addresses and can be rebuilt in 32 bits, and the helpers the rewrite shares
// with it (pass_shared32.cpp). Internal to ptx/.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir.h"
#include "pass_cleanup_steps.h"
#include "pass_common.h"
#include "registers.h"

namespace gpucmp::ptx::shared32 {

bool is_64bit_modifier(const std::string& m);

// An integer immediate whose value means the same as a .s32 operand.
bool is_int32_immediate(const Operand& op);

// The index of the memory operand of an ld/st/atom/red on .shared or
// .shared::cta, or -1 for any other instruction.
int shared_address_index(const Instruction& ins);

// That memory operand, or nullptr.
const Operand* address_of(const Instruction& ins);

// 64-bit registers of a function, and which of them the pass may edit the
// definitions of: those declared at the top of the body (not parameters, not
// in a { } scope that may shadow them). Also a prefix no declared name uses.
class Registers64 {
 public:
  explicit Registers64(const Function& f);

  bool is_64bit(const std::string& r) const { return classes_.of(r) == ".b64"; }
  bool editable(const std::string& r) const {
    return is_64bit(r) && !not_top_.count(r) && !not_top_.count(split_register(r).prefix);
  }
  std::string fresh_prefix(std::string wanted) const {
    while (prefixes_.count(wanted)) wanted += "_";
    return wanted;
  }

 private:
  cleanup::RegisterClasses classes_;
  std::set<std::string>
      not_top_;  // names (or range prefixes) of parameters and scoped declarations
  std::set<std::string> prefixes_;  // of every declared name
};

// What part 1 found: the address registers to rebuild, connected to an access
// through their definitions, and the access bases that stay 64-bit.
struct AddressRegisters {
  std::map<std::string, std::string> rebuilt;  // address register -> "" (its 32-bit register)
  std::map<int, int> address_index;            // their definitions -> operand read as the address
  std::map<std::string, std::string> kept;     // access base left 64-bit -> why
};

// Part 1 on f as it came in (`counts` are its statement indices): `accesses`
// are the statements of the .shared accesses through 64-bit bases.
AddressRegisters find_address_registers(const Function& f,
                                        const std::set<std::string>& shared_symbols,
                                        const Registers64& types, const RegisterCounts& counts,
                                        const std::vector<int>& accesses);

}  // namespace gpucmp::ptx::shared32
