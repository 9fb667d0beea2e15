#include "normalize.h"

#include <algorithm>
#include <map>
#include <set>

#include "cfg.h"
#include "registers.h"

namespace gpucmp::ptx {
namespace {

bool is_debug_directive(const Directive& d) {
  return d.name == ".loc" || d.name == ".file" ||
         (d.name == ".section" && d.text.find(".debug") != std::string::npos);
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '%' || c == '.';
}

// Rewrites the words (runs of identifier characters, as the lexer splits
// them) of a directive's text that `names` maps: labels in .branchtargets.
std::string rename_words(const std::string& text, const std::map<std::string, std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i;
    while (j < text.size() && is_word_char(text[j])) ++j;
    if (j == i) {
      out += text[i++];
      continue;
    }
    const std::string word = text.substr(i, j - i);
    const auto it = names.find(word);
    out += it == names.end() ? word : it->second;
    i = j;
  }
  return out;
}

void collect_words(const std::string& text, std::set<std::string>& out) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i;
    while (j < text.size() && is_word_char(text[j])) ++j;
    if (j > i) out.insert(text.substr(i, j - i));
    i = j == i ? i + 1 : j;
  }
}

// Renames registers in first-use order, one counter per class (prefix).
class RegisterRenamer {
 public:
  explicit RegisterRenamer(std::set<std::string> classes) : classes_(std::move(classes)) {}

  void rename(std::string& name) {
    const RegisterName parts = split_register(name);
    if (parts.number.empty() || classes_.count(parts.prefix) == 0) return;
    const std::string base = parts.prefix + parts.number;
    auto it = names_.find(base);
    if (it == names_.end())
      it = names_.emplace(base, parts.prefix + std::to_string(++used_[parts.prefix])).first;
    name = it->second + parts.suffix;
  }

  void rename(Operand& op) {
    if (op.kind == Operand::Kind::Register ||
        (op.kind == Operand::Kind::Memory && !op.name.empty() && op.name[0] == '%'))
      rename(op.name);
    for (auto& e : op.elements) rename(e);
    op.text = op.str();
  }

  // Registers %p0 .. %p<used>: the declaration count nvcc would write.
  long long count(const std::string& prefix) const {
    const auto it = used_.find(prefix);
    return (it == used_.end() ? 0 : it->second) + 1;
  }

 private:
  std::set<std::string> classes_;
  std::map<std::string, std::string> names_;
  std::map<std::string, long long> used_;
};

std::set<std::string> range_declared_classes(const Function& f) {
  std::set<std::string> out;
  for (const auto& s : f.body)
    if (s.kind == Statement::Kind::RegDecl)
      for (const auto& d : s.decl.declarators)
        if (d.range) out.insert(d.name);
  return out;
}

void rename_registers(Function& f) {
  RegisterRenamer renamer(range_declared_classes(f));
  for (auto& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    if (s.instruction.guard) renamer.rename(*s.instruction.guard);
    for (auto& op : s.instruction.operands) renamer.rename(op);
  }
  for (auto& s : f.body)
    if (s.kind == Statement::Kind::RegDecl)
      for (auto& d : s.decl.declarators)
        if (d.range) d.range = renamer.count(d.name);
}

void rename_label_references(Operand& op, const std::map<std::string, std::string>& names) {
  if (op.kind == Operand::Kind::Symbol) {
    const auto it = names.find(op.name);
    if (it != names.end()) op.name = it->second;
  }
  for (auto& e : op.elements) rename_label_references(e, names);
  op.text = op.str();
}

void rename_labels(Function& f) {
  std::map<std::string, std::string> names;
  for (const auto& s : f.body)
    if (s.kind == Statement::Kind::Label && names.count(s.label) == 0)
      names.emplace(s.label, "$L__" + std::to_string(names.size() + 1));
  for (auto& s : f.body) {
    if (s.kind == Statement::Kind::Label) s.label = names.at(s.label);
    if (s.kind == Statement::Kind::Instruction)
      for (auto& op : s.instruction.operands) rename_label_references(op, names);
    if (s.kind == Statement::Kind::Directive)
      s.directive.text = rename_words(s.directive.text, names);
  }
}

void collect_symbols(const Operand& op, std::set<std::string>& out) {
  if (op.kind == Operand::Kind::Symbol) out.insert(op.name);
  for (const auto& e : op.elements) collect_symbols(e, out);
}

// Labels no instruction or directive names (debug labels such as
// $L__func_begin0 or $L__tmp3 once the debug sections are gone).
void drop_unreferenced_labels(Function& f) {
  std::set<std::string> referenced;
  for (const auto& s : f.body) {
    if (s.kind == Statement::Kind::Instruction)
      for (const auto& op : s.instruction.operands) collect_symbols(op, referenced);
    if (s.kind == Statement::Kind::Directive) collect_words(s.directive.text, referenced);
  }
  f.body.erase(std::remove_if(f.body.begin(), f.body.end(),
                              [&](const Statement& s) {
                                return s.kind == Statement::Kind::Label &&
                                       referenced.count(s.label) == 0;
                              }),
               f.body.end());
}

void drop_noise(Function& f) {
  f.body.erase(std::remove_if(f.body.begin(), f.body.end(),
                              [](const Statement& s) {
                                return s.kind == Statement::Kind::Comment ||
                                       (s.kind == Statement::Kind::Directive &&
                                        is_debug_directive(s.directive));
                              }),
               f.body.end());
}

}  // namespace

void normalize(Function& f) {
  if (!f.has_body) return;
  drop_noise(f);
  drop_unreferenced_labels(f);
  rename_registers(f);
  rename_labels(f);
  build_blocks(f);
}

void normalize(Module& m) {
  m.items.erase(std::remove_if(m.items.begin(), m.items.end(),
                               [](const ModuleItem& item) {
                                 return item.kind == ModuleItem::Kind::Comment ||
                                        (item.kind == ModuleItem::Kind::Directive &&
                                         is_debug_directive(item.directive));
                               }),
                m.items.end());
  // `.target ..., debug` demands the debug sections just dropped.
  m.targets.erase(std::remove(m.targets.begin(), m.targets.end(), "debug"), m.targets.end());
  for (auto& f : m.functions) normalize(f);
}

}  // namespace gpucmp::ptx
