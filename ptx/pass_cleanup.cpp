// The three passes of cleanup (passes.h): pass_inline, pass_promote_slots and
// pass_copy_prop; pass_registry.cpp runs them in that order as `cleanup`. Their
// steps are in pass_cleanup_{inline,slots,copies}.cpp; this file decides which
// calls to inline and which functions are left unused afterwards.
#include <functional>
#include <set>

#include "cfg.h"
#include "pass_cleanup_steps.h"
#include "passes.h"

namespace gpucmp::ptx {
namespace {

using cleanup::direct_callee;

// Direct callees (defined in the module or not) of each function with a body.
std::map<std::string, std::set<std::string>> call_graph(const Module& m) {
  std::map<std::string, std::set<std::string>> out;
  for (const Function& f : m.functions)
    for (const Statement& s : f.body)
      if (s.kind == Statement::Kind::Instruction)
        if (const auto callee = direct_callee(s.instruction)) out[f.name].insert(*callee);
  return out;
}

// Functions that can reach themselves through calls: inlining them would not end.
std::set<std::string> recursive_functions(const Module& m) {
  const auto graph = call_graph(m);
  std::set<std::string> out;
  for (const auto& [start, unused] : graph) {
    std::set<std::string> seen;
    std::vector<std::string> todo(graph.at(start).begin(), graph.at(start).end());
    while (!todo.empty()) {
      const std::string f = todo.back();
      todo.pop_back();
      if (f == start) out.insert(start);
      if (!seen.insert(f).second || !graph.count(f)) continue;
      todo.insert(todo.end(), graph.at(f).begin(), graph.at(f).end());
    }
  }
  return out;
}

bool has_external_linkage(const Function& f) {
  for (const std::string& l : f.linkage)
    if (l == ".visible" || l == ".weak" || l == ".common") return true;
  return false;
}

// Whether an inlining serial would clash with names f already has: %il3_r1,
// $L__il3_BB2_1 or __local_depot3_il3.
bool serial_in_use(const Function& f, int serial) {
  const std::string tag = "il" + std::to_string(serial) + "_",
                    local_tag = "_il" + std::to_string(serial);
  for (const Statement& s : f.body) {
    if (s.kind == Statement::Kind::Label && s.label.find(tag) != std::string::npos) return true;
    for (const Declarator& d : s.decl.declarators)
      if (d.name.find(tag) != std::string::npos || d.name.find(local_tag) != std::string::npos)
        return true;
  }
  return false;
}

class Inliner {
 public:
  Inliner(Module& m, std::vector<std::string>& notes)
      : m_(m), notes_(notes), recursive_(recursive_functions(m)) {
    for (const std::string& f : recursive_)
      notes_.push_back(f + " is recursive: its calls are not inlined");
  }

  // Inlines every call in f, and the calls that brings in, until none is left
  // that can be inlined.
  void into(Function& f) {
    for (int i = 0; i < static_cast<int>(f.body.size());) {
      const Function* callee = inlinable_callee(f, i);
      if (!callee) {
        ++i;
        continue;
      }
      while (serial_in_use(f, serial_)) ++serial_;
      const std::string why = cleanup::inline_call(f, i, *callee, serial_, i);
      if (why.empty()) {
        ++serial_;
        ++inlined_;
      } else {
        notes_.push_back(f.name + ": call to " + callee->name + " not inlined: " + why);
        ++i;
      }
    }
    build_blocks(f);
  }

  int inlined() const { return inlined_; }

 private:
  const Function* inlinable_callee(const Function& f, int i) const {
    if (f.body[i].kind != Statement::Kind::Instruction) return nullptr;
    const auto name = direct_callee(f.body[i].instruction);
    if (!name || *name == f.name || recursive_.count(*name)) return nullptr;
    for (const Function& g : m_.functions)
      if (g.name == *name && g.has_body) return &g;
    return nullptr;
  }

  Module& m_;
  std::vector<std::string>& notes_;
  std::set<std::string> recursive_;
  int serial_ = 0;
  int inlined_ = 0;
};

bool mentions(const Operand& op, const std::set<std::string>& names) {
  if (!op.name.empty() && names.count(op.name)) return true;
  for (const Operand& e : op.elements)
    if (mentions(e, names)) return true;
  return false;
}

// Removes .func definitions and prototypes without external linkage that no
// instruction and no initializer names any more; returns their names.
std::vector<std::string> remove_unreferenced_functions(Module& m) {
  std::set<std::string> candidates;
  for (const Function& f : m.functions)
    if (!f.is_entry && !has_external_linkage(f)) candidates.insert(f.name);
  std::set<std::string> used;
  for (const Function& f : m.functions)
    for (const Statement& s : f.body)
      for (const Operand& op : s.instruction.operands)
        for (const std::string& c : candidates)
          if (mentions(op, {c})) used.insert(c);
  for (const ModuleItem& item : m.items)
    for (const Declarator& d : item.variable.declarators)
      for (const std::string& c : candidates)
        if (d.initializer.find(c) != std::string::npos) used.insert(c);
  std::vector<int> new_index(m.functions.size(), -1);
  std::vector<Function> kept;
  std::vector<std::string> removed;
  for (std::size_t i = 0; i < m.functions.size(); ++i) {
    Function& f = m.functions[i];
    if (candidates.count(f.name) && !used.count(f.name)) {
      if (f.has_body) removed.push_back(f.name);
      continue;
    }
    new_index[i] = static_cast<int>(kept.size());
    kept.push_back(std::move(f));
  }
  m.functions = std::move(kept);
  std::vector<ModuleItem> items;
  for (ModuleItem& item : m.items) {
    if (item.kind == ModuleItem::Kind::Function) {
      if (item.function < 0 || item.function >= static_cast<int>(new_index.size()) ||
          new_index[item.function] < 0)
        continue;
      item.function = new_index[item.function];
    }
    items.push_back(std::move(item));
  }
  m.items = std::move(items);
  return removed;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

PassReport pass_inline(Module& m) {
  PassReport report{"inline", 0, {}};
  Inliner inliner(m, report.notes);
  // Kernels and exported functions first: the helpers they call are usually
  // gone after that, so their own bodies need no inlining.
  for (Function& f : m.functions)
    if (f.has_body && (f.is_entry || has_external_linkage(f))) inliner.into(f);
  std::vector<std::string> removed = remove_unreferenced_functions(m);
  for (Function& f : m.functions)
    if (f.has_body && !f.is_entry && !has_external_linkage(f)) inliner.into(f);
  for (const std::string& name : remove_unreferenced_functions(m)) removed.push_back(name);
  if (!removed.empty()) report.notes.push_back("removed unused functions " + join(removed));
  report.changed = inliner.inlined();
  return report;
}

PassReport pass_promote_slots(Function& f) {
  PassReport report{"promote-slots", 0, {}};
  report.changed = cleanup::promote_stack_slots(f, report.notes);
  return report;
}

PassReport pass_copy_prop(Function& f) { return {"copy-prop", cleanup::propagate_copies(f), {}}; }

}  // namespace gpucmp::ptx
