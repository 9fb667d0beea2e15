#include "cuda_abi.h"

#include <map>
#include <stdexcept>

#include "printer.h"

namespace gpucmp::ptx {
namespace {

constexpr std::size_t kMaxConstantBytes = 65536;  // the user constant bank

[[noreturn]] void refuse(const Function& f, const Statement& s, const std::string& why) {
  throw std::invalid_argument("kernel " + f.name + ", line " + std::to_string(s.line) + " ('" +
                              print(s) + "'): " + why);
}

// -1 for a name that is not %envreg<N>.
int envreg_index(const Operand& o) {
  const std::string prefix = "%envreg";
  if (o.kind != Operand::Kind::SpecialRegister || o.name.compare(0, prefix.size(), prefix) != 0)
    return -1;
  const std::string digits = o.name.substr(prefix.size());
  if (digits.empty() || digits.size() > 2 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return 99;  // an envreg, but not one we know
  return std::stoi(digits);
}

Operand zero() {
  Operand o;
  o.kind = Operand::Kind::Immediate;
  o.text = o.value = "0";
  return o;
}

Operand special(const std::string& name) {
  Operand o;
  o.kind = Operand::Kind::SpecialRegister;
  o.text = o.name = name;
  return o;
}

Operand symbol(const std::string& name) {
  Operand o;
  o.kind = Operand::Kind::Symbol;
  o.text = o.name = name;
  return o;
}

bool is_32bit_mov(const Instruction& ins) {
  if (ins.opcode != "mov" || ins.modifiers.size() != 1 || ins.operands.size() != 2) return false;
  const std::string& t = ins.modifiers[0];
  return (t == "b32" || t == "u32" || t == "s32") && ins.operands[0].is_register();
}

// %envreg0..5 -> 0, %envreg6..8 -> %nctaid.x/y/z; counts per envreg.
void rewrite_envregs(Function& f, std::map<int, int>& counts) {
  static const char* const kAxis[] = {"x", "y", "z"};
  for (Statement& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    Instruction& ins = s.instruction;
    for (std::size_t i = 0; i < ins.operands.size(); ++i) {
      const int n = envreg_index(ins.operands[i]);
      if (n < 0) continue;
      if (i != 1 || !is_32bit_mov(ins))
        refuse(f, s, "%envreg read other than by a 32-bit mov into a register");
      if (n > 8)
        refuse(f, s, ins.operands[i].name + " has no CUDA equivalent (known: %envreg0..8)");
      if (n < 6) {
        ins.operands[1] = zero();
      } else {
        ins.operands[1] = special(std::string("%nctaid.") + kAxis[n - 6]);
        ins.modifiers = {"u32"};
      }
      ++counts[n];
    }
  }
}

// Redirects the one `.ptr .const` parameter of `f`, if any; returns its name or "".
std::string redirect_constant_param(Function& f) {
  std::string param;
  for (const Param& p : f.params) {
    if (!p.is_ptr || p.ptr_space != ".const") continue;
    if (!param.empty())
      throw std::invalid_argument("kernel " + f.name +
                                  " has several __constant pointer parameters (" + param + ", " +
                                  p.name + "); one is supported");
    param = p.name;
  }
  if (param.empty()) return "";
  for (Statement& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    Instruction& ins = s.instruction;
    for (std::size_t i = 0; i < ins.operands.size(); ++i) {
      const Operand& o = ins.operands[i];
      const bool names_param =
          (o.kind == Operand::Kind::Memory || o.kind == Operand::Kind::Symbol) && o.name == param;
      if (!names_param) continue;
      const bool plain_load = ins.opcode == "ld" &&
                              ins.modifiers == std::vector<std::string>{"param", "u64"} && i == 1 &&
                              o.kind == Operand::Kind::Memory && !o.has_offset &&
                              o.elements.empty() && ins.operands[0].is_register() && !ins.guard;
      if (!plain_load)
        refuse(f, s,
               "the __constant pointer parameter " + param +
                   " is read other than by ld.param.u64 into a register");
      ins.opcode = "mov";
      ins.modifiers = {"u64"};
      ins.operands[1] = symbol(kConstantArgSymbol);
    }
  }
  return param;
}

void add_constant_array(Module& m, std::size_t bytes) {
  for (const ModuleItem& item : m.items)
    if (item.kind == ModuleItem::Kind::Variable)
      for (const Declarator& d : item.variable.declarators)
        if (d.name == kConstantArgSymbol)
          throw std::invalid_argument(std::string("the module already declares ") +
                                      kConstantArgSymbol);
  ModuleItem item;
  item.kind = ModuleItem::Kind::Variable;
  item.variable.linkage = {".visible"};
  item.variable.space = ".const";
  item.variable.align = 16;
  item.variable.types = {".b8"};
  Declarator d;
  d.name = kConstantArgSymbol;
  d.array = "[" + std::to_string(bytes) + "]";
  item.variable.declarators.push_back(d);
  auto at = m.items.begin();
  while (at != m.items.end() && at->kind != ModuleItem::Kind::Function) ++at;
  m.items.insert(at, item);
}

std::string describe(const std::map<int, int>& counts) {
  std::string out;
  for (const auto& [n, reads] : counts) {
    out += out.empty() ? "" : ", ";
    out += "%envreg" + std::to_string(n) + " -> " +
           (n < 6 ? std::string("0") : std::string("%nctaid.") + "xyz"[n - 6]) + " (" +
           std::to_string(reads) + (reads == 1 ? " read)" : " reads)");
  }
  return out;
}

}  // namespace

void rewrite_opencl_kernel_for_cuda(Module& m, std::size_t constant_arg_bytes,
                                    std::vector<std::string>* notes) {
  std::vector<std::string> done;
  std::vector<std::string> redirected;
  for (Function& f : m.functions) {
    if (!f.has_body) continue;
    std::map<int, int> counts;
    rewrite_envregs(f, counts);
    if (!counts.empty()) done.push_back(f.name + ": " + describe(counts));
    if (!f.is_entry) continue;
    const std::string param = redirect_constant_param(f);
    if (param.empty()) continue;
    redirected.push_back(param);
    done.push_back(f.name + ": __constant parameter " + param + " -> " + kConstantArgSymbol);
  }
  if (!redirected.empty()) {
    if (constant_arg_bytes == 0 || constant_arg_bytes > kMaxConstantBytes)
      throw std::invalid_argument("__constant pointer parameter " + redirected.front() +
                                  ": the constant array needs a size in 1.." +
                                  std::to_string(kMaxConstantBytes) + " bytes, got " +
                                  std::to_string(constant_arg_bytes));
    add_constant_array(m, constant_arg_bytes);
    done.push_back(std::string(kConstantArgSymbol) + ": .const, " +
                   std::to_string(constant_arg_bytes) + " bytes");
  }
  if (notes) notes->insert(notes->end(), done.begin(), done.end());
}

}  // namespace gpucmp::ptx
