// pass_align(): raises the alignment of .shared arrays to 16 bytes where a
// vector access (ld.shared.v4.f32, LDS.128) could use it (passes.h).
//
// Why: NVIDIA's OpenCL front end declares a __local float tile `.shared
// .align 4`, and the driver's JIT then keeps every shared load scalar, where
// nvcc's SASS of the same loop reads the tile with LDS.128. Raising a
// variable's alignment never changes what a program computes (it only moves
// where the variable starts); it may cost at most 12 bytes of padding per
// variable, so the pass only touches arrays whose size is a multiple of 16.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "passes.h"

namespace gpucmp::ptx {
namespace {

constexpr long long kVectorBytes = 16;  // ld.shared.v4.f32 / LDS.128

// Bytes of one element of a declaration's type ({".v4", ".f32"} -> 16), 0 if unknown.
long long element_bytes(const std::vector<std::string>& types) {
  long long scalar = 0, lanes = 1;
  for (const std::string& t : types) {
    if (t == ".v2")
      lanes = 2;
    else if (t == ".v4")
      lanes = 4;
    else if (t == ".v8")
      lanes = 8;
    else if (t == ".b8" || t == ".u8" || t == ".s8")
      scalar = 1;
    else if (t == ".b16" || t == ".u16" || t == ".s16" || t == ".f16" || t == ".bf16")
      scalar = 2;
    else if (t == ".b32" || t == ".u32" || t == ".s32" || t == ".f32" || t == ".f16x2" ||
             t == ".bf16x2")
      scalar = 4;
    else if (t == ".b64" || t == ".u64" || t == ".s64" || t == ".f64")
      scalar = 8;
    else if (t == ".b128")
      scalar = 16;
  }
  return scalar * lanes;
}

// Elements of a declarator's array part: "" -> 1, "[1024]" -> 1024,
// "[2][3]" -> 6; nothing for "[]" (an extern array) or what does not parse.
std::optional<long long> element_count(const std::string& array) {
  long long count = 1;
  std::size_t at = 0;
  while (at < array.size()) {
    const std::size_t close = array.find(']', at);
    if (array[at] != '[' || close == std::string::npos || close == at + 1) return std::nullopt;
    const std::string digits = array.substr(at + 1, close - at - 1);
    if (digits.size() > 15 || digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    count *= std::stoll(digits);
    at = close + 1;
  }
  return count;
}

bool names(const Operand& op, const std::string& symbol) {
  if (op.name == symbol) return true;
  for (const Operand& e : op.elements)
    if (names(e, symbol)) return true;
  return false;
}

bool is_shared_access(const Instruction& ins) {
  if (ins.opcode != "ld" && ins.opcode != "st") return false;
  for (const std::string& m : ins.modifiers)
    if (m.rfind("shared", 0) == 0) return true;
  return false;
}

// Whether f refers to `symbol` and reads or writes shared memory with ld/st:
// either directly ([As+64]) or through an address taken with mov/cvta.
bool uses_in_shared_access(const Function& f, const std::string& symbol) {
  bool named = false, accesses = false;
  for (const Statement& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    const Instruction& ins = s.instruction;
    accesses = accesses || is_shared_access(ins);
    for (const Operand& op : ins.operands) named = named || names(op, symbol);
  }
  return named && accesses;
}

// One .shared declaration: raised to 16 when every variable it declares has a
// size that is a multiple of 16 and is accessed with ld/st.shared by one of
// `users`. Returns whether it changed; notes say why not where it matters.
bool raise(VarDecl& d, const std::string& scope, const std::vector<const Function*>& users,
           std::vector<std::string>& notes) {
  if (d.space != ".shared" || d.declarators.empty()) return false;
  const long long element = element_bytes(d.types);
  const long long current = d.align.value_or(element);
  if (current >= kVectorBytes) return false;
  for (const std::string& l : d.linkage)
    if (l == ".extern") {
      notes.push_back(scope + ": " + d.declarators.front().name +
                      " is .extern (defined elsewhere): alignment kept");
      return false;
    }
  std::vector<std::string> raised;
  for (const Declarator& v : d.declarators) {
    const std::optional<long long> count = element_count(v.array);
    const std::string what = scope + ": " + v.name;
    if (!count || element == 0) {
      notes.push_back(what + ": size unknown (extern or unknown type), alignment kept");
      return false;
    }
    const long long bytes = *count * element;
    if (bytes == 0 || bytes % kVectorBytes != 0) {
      notes.push_back(what + ": " + std::to_string(bytes) +
                      " bytes, not a multiple of 16: alignment kept");
      return false;
    }
    bool accessed = false;
    for (const Function* f : users) accessed = accessed || uses_in_shared_access(*f, v.name);
    if (!accessed) {
      notes.push_back(what + ": not accessed with ld/st.shared: alignment kept");
      return false;
    }
    raised.push_back(v.name + " (" + std::to_string(bytes) + " bytes)");
  }
  for (const std::string& r : raised)
    notes.push_back(scope + ": " + r + " .align " + std::to_string(current) + " -> 16");
  d.align = kVectorBytes;
  return true;
}

}  // namespace

PassReport pass_align(Module& m) {
  PassReport report{"align", 0, {}};
  std::vector<const Function*> with_body;
  for (const Function& f : m.functions)
    if (f.has_body) with_body.push_back(&f);
  for (ModuleItem& item : m.items)
    if (item.kind == ModuleItem::Kind::Variable)
      if (raise(item.variable, "module", with_body, report.notes)) ++report.changed;
  for (Function& f : m.functions) {
    const std::vector<const Function*> self = {&f};
    for (Statement& s : f.body)
      if (s.kind == Statement::Kind::VarDecl && raise(s.decl, f.name, self, report.notes))
        ++report.changed;
  }
  return report;
}

}  // namespace gpucmp::ptx
