// Common-subexpression elimination: scoped value numbering over the dominator tree.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cfg.h"
#include "pass_common.h"
#include "passes.h"
#include "registers.h"

namespace gpucmp::ptx {
namespace {

std::vector<std::vector<int>> dominator_children(const std::vector<int>& idom) {
  std::vector<std::vector<int>> children(idom.size());
  for (std::size_t b = 1; b < idom.size(); ++b)
    if (idom[b] >= 0 && idom[b] != static_cast<int>(b))
      children[idom[b]].push_back(static_cast<int>(b));
  return children;
}

// Whether statement `at` dominates every statement in `sites`.
bool dominates_all(const std::vector<int>& idom, const std::vector<int>& block_of, int at,
                   const std::vector<int>& sites) {
  for (const int use : sites) {
    const bool dominated =
        block_of[use] == block_of[at] ? use > at : dominates(idom, block_of[at], block_of[use]);
    if (!dominated) return false;
  }
  return true;
}

// The declared type of every register: ranges by prefix (%rd<53> -> %rd),
// single declarators by name, so that registers of different names but the
// same type (%rd22, %urd0 from unrolled copies) can replace one another.
class RegisterTypes {
 public:
  explicit RegisterTypes(const Function& f) {
    for (const Statement& s : f.body) {
      if (s.kind != Statement::Kind::RegDecl) continue;
      std::string type;
      for (const std::string& t : s.decl.types) type += t;
      for (const Declarator& d : s.decl.declarators)
        (d.range ? by_prefix_ : by_name_)[d.name] = type;
    }
  }
  std::string of(const std::string& reg) const {
    if (const auto it = by_name_.find(reg); it != by_name_.end()) return it->second;
    const auto it = by_prefix_.find(split_register(reg).prefix);
    return it == by_prefix_.end() ? "?" + split_register(reg).prefix : it->second;
  }

 private:
  std::map<std::string, std::string> by_prefix_, by_name_;
};

class ValueNumbering {
 public:
  explicit ValueNumbering(Function& f)
      : f_(f),
        counts_(count_registers(f)),
        body_names_(body_declared_names(f)),
        types_(f),
        idom_(immediate_dominators(f)),
        block_of_(block_of_statements(f)),
        remove_(f.body.size(), false) {}

  int run() {
    if (f_.blocks.empty()) return 0;
    walk(0);
    for (Statement& s : f_.body)
      if (s.kind == Statement::Kind::Instruction) rename_uses(s.instruction, renames_);
    if (removed_ > 0) erase_statements(f_, remove_);
    return removed_;
  }

 private:
  struct Frame {
    int block;
    std::size_t undo_mark;  // size of undo_ when the block was entered
    bool entered;
  };

  // Dominator-tree preorder with a scoped table, by an explicit stack.
  void walk(int entry) {
    const auto children = dominator_children(idom_);
    std::vector<Frame> stack = {{entry, 0, false}};
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.entered) {
        unwind(top.undo_mark);
        stack.pop_back();
        continue;
      }
      top.entered = true;
      top.undo_mark = undo_.size();
      const int block = top.block;
      visit_block(block);
      for (auto it = children[block].rbegin(); it != children[block].rend(); ++it)
        stack.push_back({*it, 0, false});
    }
  }

  void visit_block(int block) {
    for (int i = f_.blocks[block].begin; i < f_.blocks[block].end; ++i) {
      if (f_.body[i].kind != Statement::Kind::Instruction) continue;
      Instruction& ins = f_.body[i].instruction;
      rename_uses(ins, renames_);
      for (const std::string& d : defined_registers(ins)) define(d);
      if (!is_pure(ins, body_names_) || !operands_available(ins)) continue;
      const std::string dest = ins.operands[0].name;
      if (counts_.def_count(dest) != 1) continue;
      const std::string key = value_key(ins);
      const auto found = table_.find(key);
      if (found == table_.end()) {
        table_[key] = dest;
        undo_.emplace_back(key, "");
      } else if (replaceable(found->second, dest, i)) {
        renames_[dest] = found->second;
        remove_[i] = true;
        ++removed_;
      }
    }
  }

  bool replaceable(const std::string& earlier, const std::string& dest, int at) const {
    return types_.of(earlier) == types_.of(dest) &&
           dominates_all(idom_, block_of_, at, sites_of(dest));
  }

  const std::vector<int>& sites_of(const std::string& reg) const {
    static const std::vector<int> kNone;
    const auto it = counts_.use_sites.find(reg);
    return it == counts_.use_sites.end() ? kNone : it->second;
  }

  // Every register operand is defined once, by an instruction already seen on
  // this dominator-tree path (so its value is the same wherever it is read).
  bool operands_available(const Instruction& ins) const {
    const auto used = used_registers(ins);
    for (const std::string& r : used)
      if (counts_.def_count(r) != 1 || !defined_.count(r)) return false;
    return true;
  }

  static std::string value_key(const Instruction& ins) {
    std::string key = ins.full_opcode();
    for (std::size_t k = 1; k < ins.operands.size(); ++k) key += " " + ins.operands[k].str() + ",";
    return key;
  }

  void define(const std::string& reg) {
    if (defined_.insert(reg).second) undo_.emplace_back("", reg);
  }

  void unwind(std::size_t mark) {
    while (undo_.size() > mark) {
      const auto& [key, reg] = undo_.back();
      if (!key.empty()) table_.erase(key);
      if (!reg.empty()) defined_.erase(reg);
      undo_.pop_back();
    }
  }

  Function& f_;
  RegisterCounts counts_;
  std::set<std::string> body_names_;
  RegisterTypes types_;
  std::vector<int> idom_;
  std::vector<int> block_of_;
  std::vector<bool> remove_;
  std::map<std::string, std::string> table_;               // value key -> register holding it
  std::set<std::string> defined_;                          // registers defined on the current path
  std::vector<std::pair<std::string, std::string>> undo_;  // (key, reg) added in scope
  std::map<std::string, std::string> renames_;             // removed result -> earlier result
  int removed_ = 0;
};

}  // namespace

PassReport pass_cse(Function& f) {
  build_blocks(f);
  PassReport report{"cse", ValueNumbering(f).run(), {}};
  if (report.changed > 0)
    report.notes.push_back(f.name + ": " + std::to_string(report.changed) +
                           " redundant instructions removed");
  return report;
}

}  // namespace gpucmp::ptx
