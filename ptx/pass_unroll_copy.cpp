// emit_unrolled(): the copies of a counted loop, built statement by statement from the original
// ones, then tidied (branches to the next statement and labels nothing names go).
#include "pass_unroll_copy.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "cfg.h"
#include "pass_common.h"
#include "pass_unroll_facts.h"

namespace gpucmp::ptx {
namespace {

template <typename Container, typename T>
bool contains(const Container& c, const T& v) {
  return std::find(c.begin(), c.end(), v) != c.end();
}

Operand make_operand(Operand::Kind kind, const std::string& text) {
  Operand o;
  o.kind = kind;
  o.text = text;
  if (kind == Operand::Kind::Immediate)
    o.value = text;
  else
    o.name = text;
  return o;
}

Statement instruction_statement(const std::string& opcode, std::vector<std::string> modifiers,
                                std::vector<Operand> operands) {
  Statement s;
  s.kind = Statement::Kind::Instruction;
  s.instruction.opcode = opcode;
  s.instruction.modifiers = std::move(modifiers);
  s.instruction.operands = std::move(operands);
  return s;
}

Statement branch_to(const std::string& label) {
  return instruction_statement("bra", {"uni"}, {make_operand(Operand::Kind::Symbol, label)});
}

// `mov.b32 %reg, value` for a register declared with `type` (".b32").
Statement mov_immediate(const std::string& type, const std::string& reg, long long value) {
  return instruction_statement(
      "mov", {type.substr(1)},
      {make_operand(Operand::Kind::Register, reg),
       make_operand(Operand::Kind::Immediate, std::to_string(wrap32(value, true)))});
}

void collect_symbols(const Operand& op, std::set<std::string>& out) {
  if (op.kind == Operand::Kind::Symbol) out.insert(op.name);
  for (const Operand& e : op.elements) collect_symbols(e, out);
}

bool is_direct_branch(const Instruction& ins) {
  return ins.opcode == "bra" && !ins.operands.empty() &&
         ins.operands.back().kind == Operand::Kind::Symbol;
}

class CopyEmitter {
 public:
  CopyEmitter(Function& f, const CountedLoop& c, const UnrollPlan& p, RegisterPool& registers,
              LabelNamer& labels)
      : f_(f), c_(c), plan_(p), registers_(registers), labels_(labels) {}

  void run() {
    find_locals();
    for (int k = 0; k < plan_.copies; ++k) {
      label_maps_.emplace_back();
      for (const std::string& l : c_.labels)
        label_maps_.back()[l] = k == 0 ? l : labels_.fresh(l, k);
    }
    std::vector<Statement> out;
    for (int k = 0; k < plan_.copies; ++k) emit_copy(k, out);
    drop_branches_to_next(out);
    drop_unused_labels(out);
    f_.body.erase(f_.body.begin() + c_.begin, f_.body.begin() + c_.end);
    f_.body.insert(f_.body.begin() + c_.begin, out.begin(), out.end());
    build_blocks(f_);
  }

 private:
  // Registers whose value lives within one iteration and that a copy can rename.
  void find_locals() {
    for (const std::string& r : iteration_local_registers(f_, c_.begin, c_.end))
      if (!registers_.type_of(r).empty()) locals_.insert(r);
  }

  std::string target_in_copy(int k, const std::string& label) const {
    if (!label_maps_[0].count(label)) return label;  // outside the loop
    if (!contains(c_.header_labels, label)) return label_maps_[k].at(label);
    int next = k + 1;
    if (next == plan_.copies) {
      if (!plan_.loop_back) throw std::logic_error("pass_unroll: back edge out of the last copy");
      next = 0;
    }
    return label_maps_[next].at(label);
  }

  void rename_locals(Instruction& ins, int k, std::map<std::string, std::string>& names) {
    if (k == 0) return;  // the first copy keeps the original names
    for (const auto& regs : {used_registers(ins), defined_registers(ins)})
      for (const std::string& r : regs)
        if (locals_.count(r) && !names.count(r)) names[r] = registers_.fresh(r);
    if (ins.guard && names.count(*ins.guard)) ins.guard = names.at(*ins.guard);
    for (Operand& op : ins.operands) rename_operand_registers(op, names);
  }

  void emit_copy(int k, std::vector<Statement>& out) {
    std::map<std::string, std::string> names;
    std::string before, after;  // registers holding i's value before and after its update
    int before_at = -1, after_at = -1;
    const int first_update = c_.temp_update >= 0 ? c_.temp_update : c_.update;
    for (int s = c_.begin; s < c_.end; ++s) {
      const Statement& st = f_.body[s];
      if (st.kind == Statement::Kind::Label) {
        out.push_back(st);
        out.back().label = label_maps_[k].at(st.label);
        continue;
      }
      if (before_at < 0) before_at = static_cast<int>(out.size());
      if (st.kind != Statement::Kind::Instruction) {
        out.push_back(st);
        continue;
      }
      if (s == c_.test_branch) {
        emit_test(k, names, out);
        if (k == plan_.exit_copy) break;
        continue;
      }
      if (plan_.constant_induction && (s == c_.update || s == c_.temp_update)) {
        if (s == first_update) after_at = static_cast<int>(out.size());
        continue;
      }
      if (k != plan_.test_copy && contains(c_.test_chain, s)) continue;
      Instruction ins = st.instruction;
      if (plan_.constant_induction) {
        std::map<std::string, std::string> induction;
        const auto used = used_registers(ins);
        auto fresh = [&](std::string& reg) -> const std::string& {
          if (reg.empty()) reg = registers_.fresh(c_.induction);
          return reg;
        };
        if (contains(used, c_.induction))
          induction[c_.induction] = fresh(c_.after_update[s - c_.begin] ? after : before);
        if (!c_.temp.empty() && contains(used, c_.temp)) induction[c_.temp] = fresh(after);
        rename_uses(ins, induction);
      }
      rename_locals(ins, k, names);
      if (is_direct_branch(ins)) {
        Operand& target = ins.operands.back();
        target.name = target.text = target_in_copy(k, target.name);
      }
      out.push_back(f_.body[s]);
      out.back().instruction = std::move(ins);
    }
    const std::string type = registers_.type_of(c_.induction);
    if (!after.empty()) {
      if (after_at < 0)
        throw std::logic_error("pass_unroll: induction read after an update that is not there");
      out.insert(out.begin() + after_at, mov_immediate(type, after, c_.start + (k + 1) * c_.step));
    }
    if (!before.empty())
      out.insert(out.begin() + before_at, mov_immediate(type, before, c_.start + k * c_.step));
  }

  void emit_test(int k, std::map<std::string, std::string>& names, std::vector<Statement>& out) {
    const Statement& branch = f_.body[c_.test_branch];
    if (k == plan_.test_copy) {
      out.push_back(branch);
      Instruction& ins = out.back().instruction;
      rename_locals(ins, k, names);
      ins.operands.back().name = ins.operands.back().text =
          target_in_copy(k, ins.operands.back().name);
      // Leaving by falling through works from the last copy only; the matcher
      // makes that so (such a loop tests after its update: test_copy = F - 1).
      if (!c_.exit_is_target && k != plan_.copies - 1) {
        if (c_.exit_label.empty())
          throw std::logic_error("pass_unroll: exit by fall-through from a middle copy");
        out.push_back(branch_to(c_.exit_label));
      }
    } else if (k == plan_.exit_copy) {
      if (plan_.constant_induction && c_.induction_live_out) {
        const long long updates = c_.passes + (c_.update_before_exit ? 1 : 0);
        out.push_back(mov_immediate(registers_.type_of(c_.induction), c_.induction,
                                    c_.start + updates * c_.step));
      }
      if (c_.exit_is_target) out.push_back(branch_to(c_.exit_label));
    } else if (!c_.exit_is_target) {  // stays in the loop: on to the branch's target
      out.push_back(branch_to(target_in_copy(k, c_.continue_label)));
    }
  }

  // `bra.uni L` right before `L:` (comments and directives between) goes; the
  // labels right after the loop count too, for the last copy's exit branch.
  void drop_branches_to_next(std::vector<Statement>& out) const {
    auto labels_from = [](const std::vector<Statement>& body, std::size_t j,
                          std::set<std::string>& labels) {
      for (; j < body.size(); ++j) {
        const Statement::Kind kind = body[j].kind;
        if (kind == Statement::Kind::Label)
          labels.insert(body[j].label);
        else if (kind != Statement::Kind::Comment && kind != Statement::Kind::Directive)
          return false;
      }
      return true;  // reached the end
    };
    std::vector<Statement> kept;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const Statement& s = out[i];
      std::set<std::string> next;
      if (s.kind == Statement::Kind::Instruction && !s.instruction.guard &&
          is_direct_branch(s.instruction) && labels_from(out, i + 1, next))
        labels_from(f_.body, static_cast<std::size_t>(c_.end), next);
      if (!(s.kind == Statement::Kind::Instruction &&
            next.count(s.instruction.operands.back().name)))
        kept.push_back(s);
    }
    out = std::move(kept);
  }

  // Labels in the copies that no instruction and no directive names.
  void drop_unused_labels(std::vector<Statement>& out) const {
    std::set<std::string> named;
    std::vector<std::string> directives;
    auto scan = [&](const Statement& s) {
      if (s.kind == Statement::Kind::Instruction)
        for (const Operand& op : s.instruction.operands) collect_symbols(op, named);
      if (s.kind == Statement::Kind::Directive) directives.push_back(s.directive.text);
    };
    for (int i = 0; i < static_cast<int>(f_.body.size()); ++i)
      if (i < c_.begin || i >= c_.end) scan(f_.body[i]);
    for (const Statement& s : out) scan(s);
    auto used = [&](const std::string& label) {
      return named.count(label) ||
             std::any_of(directives.begin(), directives.end(),
                         [&](const std::string& d) { return d.find(label) != std::string::npos; });
    };
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const Statement& s) {
                               return s.kind == Statement::Kind::Label && !used(s.label);
                             }),
              out.end());
  }

  Function& f_;
  const CountedLoop& c_;
  const UnrollPlan& plan_;
  RegisterPool& registers_;
  LabelNamer& labels_;
  std::set<std::string> locals_;
  std::vector<std::map<std::string, std::string>> label_maps_;  // per copy: original -> its name
};

}  // namespace

void emit_unrolled(Function& f, const CountedLoop& loop, const UnrollPlan& plan,
                   RegisterPool& registers, LabelNamer& labels) {
  CopyEmitter(f, loop, plan, registers, labels).run();
}

}  // namespace gpucmp::ptx
