#include "printer.h"

#include <algorithm>

#include "cfg.h"

namespace gpucmp::ptx {
namespace {

template <typename T, typename F>
std::string join(const std::vector<T>& items, const char* separator, F&& str) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += str(items[i]);
  }
  return out;
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  return join(items, separator, [](const std::string& s) { return s; });
}

std::string declarator(const Declarator& d) {
  std::string out = d.name;
  if (d.range) out += "<" + std::to_string(*d.range) + ">";
  out += d.array;
  if (!d.initializer.empty()) out += " = " + d.initializer;
  return out;
}

std::string param(const Param& p) {
  std::string out = p.space;
  if (p.align) out += " .align " + std::to_string(*p.align);
  if (!p.types.empty()) out += " " + join(p.types, " ");
  if (p.is_ptr) {
    out += " .ptr";
    if (!p.ptr_space.empty()) out += " " + p.ptr_space;
    if (p.ptr_align) out += " .align " + std::to_string(*p.ptr_align);
  }
  return out + " " + p.name + p.array;
}

std::string instruction(const Instruction& ins) {
  std::string out;
  if (ins.guard) out += (ins.guard_negated ? "@!" : "@") + *ins.guard + " ";
  out += ins.full_opcode();
  if (!ins.operands.empty())
    out += " \t" + join(ins.operands, ", ", [](const Operand& o) { return o.str(); });
  return out + ";";
}

std::string function_directive(const FunctionDirective& d) {
  std::string out = d.name;
  if (!d.args.empty()) out += " " + join(d.args, ", ");
  return d.name == ".pragma" ? out + ";" : out;
}

// `gap` goes between the type and the names (nvcc: a tab inside bodies).
std::string declaration(const VarDecl& d, const char* gap) {
  std::string out;
  for (const auto& l : d.linkage) out += l + " ";
  out += d.space;
  if (d.align) out += " .align " + std::to_string(*d.align);
  for (const auto& a : d.attributes) out += " " + a;
  for (const auto& t : d.types) out += " " + t;
  return out + gap + join(d.declarators, ", ", declarator);
}

bool is_declaration(const Statement& s) {
  return s.kind == Statement::Kind::RegDecl || s.kind == Statement::Kind::VarDecl;
}

bool ends_block(const Statement& s) {
  return s.kind == Statement::Kind::Instruction && is_terminator(s.instruction);
}

// Blank lines as nvcc writes them: before labels, after the declarations and
// after a branch or return.
std::string body(const std::vector<Statement>& statements) {
  std::string out;
  const Statement* prev = nullptr;
  for (const auto& s : statements) {
    const bool blank =
        prev &&
        (s.kind == Statement::Kind::Label || ends_block(*prev) ||
         (is_declaration(*prev) && !is_declaration(s) && s.kind != Statement::Kind::Comment));
    if (blank) out += "\n";
    out += (s.kind == Statement::Kind::Label ? "" : "\t") + print(s) + "\n";
    prev = &s;
  }
  return out;
}

std::string header(const Module& m) {
  std::string out;
  if (m.version) out += ".version " + *m.version + "\n";
  if (!m.targets.empty()) out += ".target " + join(m.targets, ", ") + "\n";
  if (m.address_size) out += ".address_size " + std::to_string(*m.address_size) + "\n";
  return out;
}

std::string module_item(const Module& m, const ModuleItem& item) {
  switch (item.kind) {
    case ModuleItem::Kind::Header:
      return header(m);
    case ModuleItem::Kind::Comment:
      return item.comment + "\n";
    case ModuleItem::Kind::Directive:
      return item.directive.text + "\n";
    case ModuleItem::Kind::Variable:
      return print(item.variable) + ";\n";
    case ModuleItem::Kind::Function:
      if (item.function >= 0 && item.function < static_cast<int>(m.functions.size()))
        return print(m.functions[item.function]);
  }
  return "";
}

}  // namespace

std::string print(const VarDecl& d) { return declaration(d, " "); }

std::string print(const Statement& s) {
  switch (s.kind) {
    case Statement::Kind::Instruction:
      return instruction(s.instruction);
    case Statement::Kind::Label:
      return s.label + ":";
    case Statement::Kind::RegDecl:
    case Statement::Kind::VarDecl:
      return declaration(s.decl, " \t") + ";";
    case Statement::Kind::ScopeOpen:
      return "{";
    case Statement::Kind::ScopeClose:
      return "}";
    case Statement::Kind::Pragma:
      return ".pragma " + join(s.pragma_args, ", ") + ";";
    case Statement::Kind::Directive:
      return s.directive.text;
    case Statement::Kind::Comment:
      return s.comment;
  }
  return "";
}

std::string print(const Function& f) {
  std::string out;
  for (const auto& l : f.linkage) out += l + " ";
  out += f.is_entry ? ".entry " : ".func ";
  if (f.return_params) out += "(" + join(*f.return_params, ", ", param) + ") ";
  out += f.name + "(";
  if (!f.params.empty()) out += "\n\t" + join(f.params, ",\n\t", param) + "\n";
  out += ")\n";
  for (const auto& d : f.directives) out += function_directive(d) + "\n";
  if (!f.has_body) return out + ";\n";
  out += "{\n" + body(f.body);
  return out + "}\n";
}

std::string print(const Module& m) {
  const bool has_header_item = std::any_of(m.items.begin(), m.items.end(), [](const ModuleItem& i) {
    return i.kind == ModuleItem::Kind::Header;
  });
  std::string out = has_header_item ? "" : header(m);
  const ModuleItem* previous = nullptr;
  for (const auto& item : m.items) {
    const bool separate = item.kind != ModuleItem::Kind::Comment || !previous ||
                          previous->kind != ModuleItem::Kind::Comment;
    if (separate && !out.empty()) out += "\n";
    out += module_item(m, item);
    previous = &item;
  }
  return out;
}

}  // namespace gpucmp::ptx
