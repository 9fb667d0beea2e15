// Inlining of one call block (pass_cleanup_steps.h: inline_call). clang -O0
// passes arguments and results through .param variables declared in a scope
// around the call; the callee reads them with ld.param and writes its result
// with st.param. Both sides become movs between the caller's values and the
// callee's renamed registers.
#include <cstdint>
#include <set>
#include <utility>

#include "pass_cleanup_steps.h"
#include "printer.h"
#include "registers.h"

namespace gpucmp::ptx::cleanup {
namespace {

using ParamKey = std::pair<std::string, std::int64_t>;  // (.param name, byte offset)

struct TypedOperand {
  std::string type;  // the st.param / ld.param type ("b32")
  Operand operand;   // argument value, or result destination
};

struct CallBlock {
  int open = -1;                                     // the '{' before the call
  int close = -1;                                    // the matching '}'
  std::vector<std::string> arg_names, result_names;  // the call's lists, in order
  std::map<ParamKey, TypedOperand> args;             // st.param before the call
  std::map<ParamKey, TypedOperand> results;          // ld.param after the call
};

bool is_param_access(const Instruction& ins, const char* opcode, std::size_t memory_operand) {
  return ins.opcode == opcode && ins.has_modifier("param") && ins.operands.size() == 2 &&
         ins.operands[memory_operand].kind == Operand::Kind::Memory &&
         ins.operands[memory_operand].elements.empty() && !ins.has_modifier("v2") &&
         !ins.has_modifier("v4");
}

// mov type for a value written as `from` and read as `to`: the same type, or
// .bN (which accepts any register and literal of N bits). "" when the sizes
// differ or mov has no such width (8 bits).
std::string copy_type(const std::string& from, const std::string& to) {
  const int bits = type_bits(to);
  if (bits < 16 || bits != type_bits(from)) return "";
  if (from == to || (is_float_type(from) && is_float_type(to))) return to;
  return "b" + std::to_string(bits);
}

std::vector<std::string> list_names(const Operand& list) {
  std::vector<std::string> out;
  for (const Operand& e : list.elements) out.push_back(e.name);
  return out;
}

// Finds the scope around body[call] and reads its arguments and results.
std::string read_call_block(const Function& f, int call, CallBlock& b) {
  const Instruction& c = f.body[call].instruction;
  if (c.guard) return "guarded call";
  bool after_callee = false;
  for (const Operand& op : c.operands) {
    if (op.kind == Operand::Kind::Symbol)
      after_callee = true;
    else if (op.kind == Operand::Kind::List)
      (after_callee ? b.arg_names : b.result_names) = list_names(op);
  }
  for (int i = call - 1, depth = 0; i >= 0 && b.open < 0; --i) {
    if (f.body[i].kind == Statement::Kind::ScopeClose) ++depth;
    if (f.body[i].kind == Statement::Kind::ScopeOpen && depth-- == 0) b.open = i;
  }
  const int size = static_cast<int>(f.body.size());
  for (int i = call + 1, depth = 0; i < size && b.close < 0; ++i) {
    if (f.body[i].kind == Statement::Kind::ScopeOpen) ++depth;
    if (f.body[i].kind == Statement::Kind::ScopeClose && depth-- == 0) b.close = i;
  }
  if (b.open < 0 || b.close < 0) return "call outside a call block";
  std::set<std::string> params;
  for (int i = b.open + 1; i < b.close; ++i) {
    const Statement& s = f.body[i];
    if (i == call || s.kind == Statement::Kind::Comment || s.kind == Statement::Kind::Directive ||
        s.kind == Statement::Kind::RegDecl)
      continue;  // temp_param_reg, callseq comments, .loc: nothing to keep
    if (s.kind == Statement::Kind::VarDecl && s.decl.space == ".param") {
      for (const Declarator& d : s.decl.declarators) params.insert(d.name);
      continue;
    }
    const Instruction& ins = s.instruction;
    const bool plain = s.kind == Statement::Kind::Instruction && !ins.guard;
    if (plain && i < call && is_param_access(ins, "st", 0) && params.count(ins.operands[0].name)) {
      b.args[{ins.operands[0].name, ins.operands[0].offset}] = {ins.type(), ins.operands[1]};
    } else if (plain && i > call && is_param_access(ins, "ld", 1) &&
               params.count(ins.operands[1].name) && ins.operands[0].is_register()) {
      b.results[{ins.operands[1].name, ins.operands[1].offset}] = {ins.type(), ins.operands[0]};
    } else {
      return "unexpected statement in its call block: '" + print(s) + "'";
    }
  }
  for (const auto& [key, result] : b.results)
    for (const auto& [unused, arg] : b.args)
      if (arg.operand.is_register() && arg.operand.name == result.operand.name)
        return "result register " + result.operand.name + " is also an argument";
  return "";
}

// New names for everything the callee declares: registers, labels, .local arrays.
class CalleeNames {
 public:
  CalleeNames(const Function& callee, int serial)
      : reg_prefix_("%il" + std::to_string(serial) + "_"),
        label_prefix_("$L__il" + std::to_string(serial) + "_") {
    int depth = 0;
    for (const Statement& s : callee.body) {
      depth += s.kind == Statement::Kind::ScopeOpen    ? 1
               : s.kind == Statement::Kind::ScopeClose ? -1
                                                       : 0;
      if (s.kind == Statement::Kind::Label) exact_[s.label] = label(s.label);
      if (s.kind == Statement::Kind::RegDecl)
        for (const Declarator& d : s.decl.declarators)
          (d.range ? prefixes_ : singles_).insert(d.name);
      if (s.kind == Statement::Kind::VarDecl && depth == 0)
        for (const Declarator& d : s.decl.declarators) {
          // A per-thread .local array can be duplicated per call site; a
          // .shared or .global one cannot.
          if (s.decl.space == ".local")
            exact_[d.name] = d.name + "_il" + std::to_string(serial);
          else
            refusal_ = "callee declares " + s.decl.space + " " + d.name;
        }
    }
  }

  const std::string& refusal() const { return refusal_; }

  std::string operator()(const std::string& name) const {
    const auto it = exact_.find(name);
    if (it != exact_.end()) return it->second;
    const RegisterName split = split_register(name);
    const bool declared =
        singles_.count(name) || (prefixes_.count(split.prefix) && !split.number.empty());
    return declared && name[0] == '%' ? reg_prefix_ + name.substr(1) : name;
  }

  // A declarator: %r of %r<5> becomes %il3_r; %SP becomes %il3_SP.
  std::string declared(const Declarator& d) const {
    return d.range && d.name[0] == '%' ? reg_prefix_ + d.name.substr(1) : (*this)(d.name);
  }

  std::string label(const std::string& name) const {
    return label_prefix_ + (name.rfind("$L__", 0) == 0 ? name.substr(4) : name);
  }

 private:
  std::string reg_prefix_, label_prefix_, refusal_;
  std::map<std::string, std::string> exact_;  // labels and .local arrays
  std::set<std::string> singles_, prefixes_;  // %SP; %r of %r<5>
};

}  // namespace

std::string inline_call(Function& caller, int call, const Function& callee, int serial,
                        int& resume) {
  CallBlock b;
  if (std::string why = read_call_block(caller, call, b); !why.empty()) return why;
  if (b.arg_names.size() != callee.params.size() ||
      b.result_names.size() != (callee.return_params ? callee.return_params->size() : 0))
    return "call and definition of " + callee.name + " differ in parameters";
  std::map<std::string, std::string> arg_of, result_of;  // callee .param name -> caller's
  for (std::size_t k = 0; k < b.arg_names.size(); ++k)
    arg_of[callee.params[k].name] = b.arg_names[k];
  for (std::size_t k = 0; k < b.result_names.size(); ++k)
    result_of[(*callee.return_params)[k].name] = b.result_names[k];
  const CalleeNames names(callee, serial);
  if (!names.refusal().empty()) return names.refusal();

  int last = -1;  // the callee's final instruction: a plain ret there is dropped
  for (std::size_t i = 0; i < callee.body.size(); ++i)
    if (callee.body[i].kind == Statement::Kind::Instruction) last = static_cast<int>(i);
  const std::string return_label = names.label("ret");
  bool return_label_used = false;
  std::vector<Statement> code, decls;
  int depth = 0;
  for (std::size_t i = 0; i < callee.body.size(); ++i) {
    Statement s = callee.body[i];
    depth += s.kind == Statement::Kind::ScopeOpen    ? 1
             : s.kind == Statement::Kind::ScopeClose ? -1
                                                     : 0;
    if (s.kind == Statement::Kind::Label) s.label = names.label(s.label);
    if (s.kind == Statement::Kind::RegDecl || s.kind == Statement::Kind::VarDecl) {
      for (Declarator& d : s.decl.declarators) d.name = names.declared(d);
      (depth == 0 ? decls : code).push_back(std::move(s));
      continue;
    }
    if (s.kind != Statement::Kind::Instruction) {
      code.push_back(std::move(s));
      continue;
    }
    Instruction& ins = s.instruction;
    const std::optional<std::string> guard =
        ins.guard ? std::optional(names(*ins.guard)) : std::nullopt;
    if (is_param_access(ins, "ld", 1) && arg_of.count(ins.operands[1].name)) {
      const Operand& mem = ins.operands[1];
      const auto arg = b.args.find({arg_of[mem.name], mem.offset});
      if (arg == b.args.end()) return "callee reads " + mem.str() + ", which the call does not set";
      const std::string type = copy_type(arg->second.type, ins.type());
      if (type.empty() || !ins.operands[0].is_register())
        return "unsupported parameter read '" + print(s) + "'";
      ins = make_instruction("mov", {type},
                             {register_operand(names(ins.operands[0].name)), arg->second.operand});
    } else if (is_param_access(ins, "st", 0) && result_of.count(ins.operands[0].name)) {
      const Operand& mem = ins.operands[0];
      const auto result = b.results.find({result_of[mem.name], mem.offset});
      if (result == b.results.end()) continue;  // the caller ignores this result
      const std::string type = copy_type(ins.type(), result->second.type);
      if (type.empty()) return "unsupported result write '" + print(s) + "'";
      Operand value = ins.operands[1];
      if (value.is_register()) value.name = names(value.name);
      ins = make_instruction("mov", {type}, {result->second.operand, value});
    } else if (ins.opcode == "ret") {
      if (static_cast<int>(i) == last && !guard) continue;
      ins = make_instruction("bra",
                             guard ? std::vector<std::string>{} : std::vector<std::string>{"uni"},
                             {symbol_operand(return_label)});
      return_label_used = true;
    } else {
      std::string escaped;
      rename_names(ins, [&](const std::string& n) {
        if (arg_of.count(n) || result_of.count(n)) escaped = n;
        return names(n);
      });
      if (!escaped.empty())
        return "callee uses parameter " + escaped + " other than by ld/st.param";
    }
    ins.guard = guard;
    ins.guard_negated = callee.body[i].instruction.guard_negated;
    code.push_back(std::move(s));
  }
  if (return_label_used) {
    Statement label;
    label.kind = Statement::Kind::Label;
    label.label = return_label;
    code.push_back(std::move(label));
  }

  int end = b.close + 1;  // also drop the "} // callseq N" comment
  if (end < static_cast<int>(caller.body.size()) &&
      caller.body[end].kind == Statement::Kind::Comment &&
      caller.body[end].comment.find("callseq") != std::string::npos)
    ++end;
  const int at = declaration_insertion_point(caller);
  caller.body.erase(caller.body.begin() + b.open, caller.body.begin() + end);
  caller.body.insert(caller.body.begin() + b.open, code.begin(), code.end());
  caller.body.insert(caller.body.begin() + at, decls.begin(), decls.end());
  resume = b.open + static_cast<int>(decls.size());
  return "";
}

}  // namespace gpucmp::ptx::cleanup
