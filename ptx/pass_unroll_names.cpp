// RegisterPool and LabelNamer: fresh names that cannot collide with what the function declares.
#include "pass_unroll_names.h"

#include "registers.h"

namespace gpucmp::ptx {
namespace {

// One declared type (".b32"), or "" for none or several (".v4 .f32").
std::string single_type(const VarDecl& d) { return d.types.size() == 1 ? d.types[0] : ""; }

}  // namespace

RegisterPool::RegisterPool(const Function& f) {
  int depth = 0;
  for (const Statement& s : f.body) {
    depth += s.kind == Statement::Kind::ScopeOpen;
    depth -= s.kind == Statement::Kind::ScopeClose;
    if (s.kind != Statement::Kind::RegDecl && s.kind != Statement::Kind::VarDecl) continue;
    for (const Declarator& d : s.decl.declarators) {
      const bool usable = s.kind == Statement::Kind::RegDecl && depth == 0 && d.array.empty();
      if (d.range) {
        prefixes_.insert(d.name);
        if (usable) ranges_[d.name] = {*d.range, single_type(s.decl)};
      } else {
        prefixes_.insert(split_register(d.name).prefix);
        if (usable) exact_[d.name] = single_type(s.decl);
      }
    }
  }
  for (const Param& p : f.params) prefixes_.insert(split_register(p.name).prefix);
}

std::string RegisterPool::type_of(const std::string& reg) const {
  for (const auto* names : {&exact_, &handed_out_}) {
    const auto it = names->find(reg);
    if (it != names->end()) return it->second;
  }
  const RegisterName name = split_register(reg);
  const auto range = ranges_.find(name.prefix);
  if (range == ranges_.end() || name.number.empty() || !name.suffix.empty() ||
      name.number.size() > 9)
    return "";
  return std::stoll(name.number) < range->second.first ? range->second.second : "";
}

std::string RegisterPool::fresh(const std::string& like) {
  const std::string type = type_of(like);
  const std::string prefix = split_register(like).prefix;
  auto found = class_of_.find({prefix, type});
  if (found == class_of_.end()) {
    // The new class is also the class of its own registers, so that a copy of
    // %ur3 is %ur4, not %uur0.
    std::string candidate = "%u" + (prefix[0] == '%' ? prefix.substr(1) : prefix);
    while (prefixes_.count(candidate)) candidate = "%u" + candidate.substr(1);
    prefixes_.insert(candidate);
    classes_.push_back({candidate, type, 0});
    found = class_of_.emplace(std::make_pair(prefix, type), static_cast<int>(classes_.size()) - 1)
                .first;
    class_of_.emplace(std::make_pair(candidate, type), found->second);
  }
  Class& c = classes_[found->second];
  std::string name = c.prefix + std::to_string(c.count++);
  handed_out_[name] = type;
  return name;
}

void RegisterPool::declare(Function& f) const {
  std::size_t at = 0;  // after the last .reg declaration that precedes the first instruction
  for (std::size_t i = 0; i < f.body.size() && f.body[i].kind != Statement::Kind::Instruction; ++i)
    if (f.body[i].kind == Statement::Kind::RegDecl) at = i + 1;
  std::vector<Statement> decls;
  for (const Class& c : classes_) {
    if (c.count == 0) continue;
    Statement s;
    s.kind = Statement::Kind::RegDecl;
    s.decl.space = ".reg";
    s.decl.types = {c.type};
    Declarator d;
    d.name = c.prefix;
    d.range = c.count;
    s.decl.declarators.push_back(d);
    decls.push_back(std::move(s));
  }
  f.body.insert(f.body.begin() + static_cast<std::ptrdiff_t>(at), decls.begin(), decls.end());
}

LabelNamer::LabelNamer(const Function& f) {
  for (const Statement& s : f.body)
    if (s.kind == Statement::Kind::Label) taken_.insert(s.label);
}

std::string LabelNamer::fresh(const std::string& base, int copy) {
  std::string name = base + "_u" + std::to_string(copy);
  for (int n = 1; taken_.count(name); ++n)
    name = base + "_u" + std::to_string(copy) + "_" + std::to_string(n);
  taken_.insert(name);
  return name;
}

}  // namespace gpucmp::ptx
