#include "opencl_abi.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace gpucmp::ptx {
namespace {

int find_entry(const Module& m, const std::string& entry_contains) {
  int found = -1;
  std::string names;
  for (std::size_t i = 0; i < m.functions.size(); ++i) {
    const Function& f = m.functions[i];
    if (!f.is_entry) continue;
    names += (names.empty() ? "" : ", ") + f.name;
    if (f.name.find(entry_contains) == std::string::npos) continue;
    if (found >= 0)
      throw std::invalid_argument("several kernels match '" + entry_contains + "': " + names);
    found = static_cast<int>(i);
  }
  if (found < 0)
    throw std::invalid_argument("no kernel matches '" + entry_contains +
                                "' (kernels: " + (names.empty() ? "none" : names) + ")");
  return found;
}

// Drops every function but `keep`, and the module items that referred to them.
void keep_only_function(Module& m, int keep) {
  std::vector<ModuleItem> items;
  for (ModuleItem item : m.items) {
    if (item.kind == ModuleItem::Kind::Function) {
      if (item.function != keep) continue;
      item.function = 0;
    }
    items.push_back(std::move(item));
  }
  m.items = std::move(items);
  Function f = std::move(m.functions[keep]);
  m.functions.clear();
  m.functions.push_back(std::move(f));
}

// Registers loaded from each parameter by ld.param: register -> parameter name.
std::map<std::string, std::string> registers_loaded_from_params(const Function& f) {
  std::set<std::string> params;
  for (const Param& p : f.params) params.insert(p.name);
  std::map<std::string, std::string> loaded;
  for (const Statement& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    const Instruction& ins = s.instruction;
    if (ins.opcode != "ld" || !ins.has_modifier("param") || ins.operands.size() != 2) continue;
    const Operand& src = ins.operands[1];
    if (src.kind == Operand::Kind::Memory && params.count(src.name) &&
        ins.operands[0].is_register())
      loaded[ins.operands[0].name] = src.name;
  }
  return loaded;
}

std::set<std::string> global_pointer_params(const Function& f) {
  const auto loaded = registers_loaded_from_params(f);
  std::set<std::string> pointers;
  for (const Statement& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    const Instruction& ins = s.instruction;
    if (ins.opcode != "cvta" || !ins.has_modifier("to") || !ins.has_modifier("global") ||
        ins.operands.size() != 2 || !ins.operands[1].is_register())
      continue;
    if (auto it = loaded.find(ins.operands[1].name); it != loaded.end())
      pointers.insert(it->second);
  }
  return pointers;
}

}  // namespace

void rewrite_nvcc_kernel_for_opencl(Module& m, const std::string& entry_contains,
                                    const std::string& opencl_name,
                                    std::vector<std::string>* notes) {
  const int entry = find_entry(m, entry_contains);
  const std::string old_name = m.functions[entry].name;
  keep_only_function(m, entry);
  Function& f = m.functions[0];
  const std::set<std::string> pointers = global_pointer_params(f);

  std::map<std::string, std::string> renamed;
  for (std::size_t i = 0; i < f.params.size(); ++i) {
    Param& p = f.params[i];
    const std::string name = opencl_name + "_param_" + std::to_string(i);
    renamed[p.name] = name;
    if (pointers.count(p.name) && !p.is_ptr) {
      p.is_ptr = true;
      p.ptr_space = ".global";
      p.ptr_align = 4;
      if (notes) notes->push_back(name + ": .ptr .global .align 4");
    }
    p.name = name;
  }
  for (Statement& s : f.body)
    if (s.kind == Statement::Kind::Instruction)
      for (Operand& o : s.instruction.operands)
        if (o.kind == Operand::Kind::Memory && renamed.count(o.name)) o.name = renamed[o.name];
  f.name = opencl_name;
  f.linkage.erase(std::remove(f.linkage.begin(), f.linkage.end(), ".visible"), f.linkage.end());
  if (std::find(m.targets.begin(), m.targets.end(), "texmode_independent") == m.targets.end())
    m.targets.emplace_back("texmode_independent");
  if (notes) notes->insert(notes->begin(), "kept " + old_name + " as " + opencl_name);
}

}  // namespace gpucmp::ptx
