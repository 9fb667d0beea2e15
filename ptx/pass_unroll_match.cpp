// match_counted_loop(): the loop's shape, its exit test, its induction register
// and its trip count. The trip count is found by running the induction
// arithmetic pass by pass (32-bit wrap-around included) rather than by a closed
// formula, so that every compare, either operand order, signedness and update
// placement (before or after the test) is counted exactly.
#include "pass_unroll_match.h"

#include <algorithm>
#include <optional>
#include <set>

#include "pass_common.h"
#include "pass_unroll_facts.h"
#include "printer.h"

namespace gpucmp::ptx {
namespace {

constexpr long long kMaxPasses = 1 << 20;

class LoopMatcher {
 public:
  LoopMatcher(const Function& f, const Loop& loop, CountedLoop& out)
      : f_(f),
        loop_(loop),
        out_(out),
        idom_(immediate_dominators(f)),
        block_of_(block_of_statements(f)),
        counts_(count_registers(f)) {}

  std::string run() {
    for (auto step : {&LoopMatcher::check_shape, &LoopMatcher::find_exit, &LoopMatcher::find_test,
                      &LoopMatcher::find_induction, &LoopMatcher::count_passes}) {
      std::string why = (this->*step)();
      if (!why.empty()) return why;
    }
    out_.induction_live_out = read_after_loop(f_, out_.induction, out_.begin, out_.end);
    out_.temp_live_out = !out_.temp.empty() && read_after_loop(f_, out_.temp, out_.begin, out_.end);
    return "";
  }

 private:
  bool in_loop(int block) const {
    return std::binary_search(loop_.blocks.begin(), loop_.blocks.end(), block);
  }
  bool in_range(int s) const { return s >= out_.begin && s < out_.end; }
  const Instruction& ins(int s) const { return f_.body[s].instruction; }

  // Statement a runs before statement b in every pass that reaches b.
  bool before(int a, int b) const {
    return block_of_[a] == block_of_[b] ? a < b : dominates(idom_, block_of_[a], block_of_[b]);
  }

  std::vector<int> defs_in_loop(const std::string& reg) const {
    std::vector<int> out;
    const auto it = counts_.def_sites.find(reg);
    if (it != counts_.def_sites.end())
      for (const int s : it->second)
        if (in_range(s)) out.push_back(s);
    return out;
  }

  std::string check_shape() {
    const int first = loop_.blocks.front(), last = loop_.blocks.back();
    if (first != loop_.header || last - first + 1 != static_cast<int>(loop_.blocks.size()))
      return "its blocks are not contiguous after the header";
    out_.begin = f_.blocks[first].begin;
    out_.end = f_.blocks[last].end;
    out_.header_labels = f_.blocks[first].labels;
    std::vector<int> outside;
    for (const int p : f_.blocks[first].predecessors)
      if (!in_loop(p)) outside.push_back(p);
    if (outside.size() != 1) return "it has no unique preheader";
    preheader_ = outside[0];
    int depth = 0;
    for (int s = out_.begin; s < out_.end; ++s) {
      const Statement& st = f_.body[s];
      if (st.kind == Statement::Kind::Label) out_.labels.push_back(st.label);
      if (st.kind == Statement::Kind::ScopeOpen) ++depth;
      if (st.kind == Statement::Kind::ScopeClose && --depth < 0)
        return "its { } scopes are unbalanced";
      if ((st.kind == Statement::Kind::RegDecl || st.kind == Statement::Kind::VarDecl) &&
          depth == 0)
        return "it declares " + print(st.decl) + " outside a { } scope";
      if (st.kind == Statement::Kind::Pragma)
        for (const std::string& a : st.pragma_args)
          if (a.find("nounroll") != std::string::npos) return "it is marked .pragma \"nounroll\"";
      if (st.kind == Statement::Kind::Instruction) {
        const std::string& op = st.instruction.opcode;
        if (op == "ret" || op == "exit" || op == "trap" || op == "brx") return "it contains " + op;
      }
    }
    if (depth != 0) return "its { } scopes are unbalanced";
    std::vector<std::pair<int, int>> exits;
    for (int b = first; b <= last; ++b)
      for (const int s : f_.blocks[b].successors) {
        if (!in_loop(s))
          exits.emplace_back(b, s);
        else if (s == first)
          latches_.push_back(b);
        else if (s <= b)
          return "its body has a backward branch that is not to the header";
      }
    if (exits.size() != 1) return "it has " + std::to_string(exits.size()) + " exits";
    exiting_ = exits[0].first;
    exit_block_ = exits[0].second;
    return "";
  }

  std::string find_exit() {
    const BasicBlock& e = f_.blocks[exiting_];
    for (int s = e.end - 1; s >= e.begin && out_.test_branch < 0; --s)
      if (f_.body[s].kind == Statement::Kind::Instruction) out_.test_branch = s;
    if (out_.test_branch < 0 || ins(out_.test_branch).opcode != "bra" ||
        !ins(out_.test_branch).guard)
      return "its exit is not a conditional branch";
    int depth = 0;  // a copy cut after its exit must not leave a { } scope open
    for (int s = out_.begin; s < out_.test_branch; ++s)
      depth += (f_.body[s].kind == Statement::Kind::ScopeOpen) -
               (f_.body[s].kind == Statement::Kind::ScopeClose);
    if (depth != 0) return "its exit branch is inside a { } scope";
    const std::string& target = ins(out_.test_branch).operands.back().name;
    out_.exit_is_target =
        std::find(out_.labels.begin(), out_.labels.end(), target) == out_.labels.end();
    if (out_.exit_is_target) {
      out_.exit_label = target;
    } else {
      out_.continue_label = target;
      const auto& labels = f_.blocks[exit_block_].labels;
      out_.exit_label = labels.empty() ? "" : labels[0];
    }
    return "";
  }

  // The last unguarded definition of `reg` before statement `at` in the same block.
  int last_def_in_block(const std::string& reg, int at) const {
    for (int s = at - 1; s >= f_.blocks[block_of_[at]].begin; --s) {
      if (f_.body[s].kind != Statement::Kind::Instruction) continue;
      const auto defs = defined_registers(ins(s));
      if (std::find(defs.begin(), defs.end(), reg) != defs.end()) return ins(s).guard ? -1 : s;
    }
    return -1;
  }

  // Follows the branch's guard back through not.pred to a setp in the exiting block.
  std::string find_test() {
    const Instruction& branch = ins(out_.test_branch);
    std::string reg = *branch.guard;
    flips_ = branch.guard_negated;
    std::vector<int> chain;
    for (int at = out_.test_branch;;) {
      const int def = last_def_in_block(reg, at);
      if (def < 0) return "its exit condition " + reg + " is not computed in the exiting block";
      chain.push_back(def);
      const Instruction& d = ins(def);
      if (d.opcode == "not" && d.operands.size() == 2 && d.operands[1].is_register() &&
          !d.operands[1].negated) {
        flips_ = !flips_;
        reg = d.operands[1].name;
        at = def;
        continue;
      }
      if (d.opcode != "setp" || d.modifiers.size() != 2 || d.operands.size() != 3 ||
          !d.operands[0].is_register())
        return "its exit test is not a plain setp comparison";
      setp_ = def;
      break;
    }
    const std::string& type = ins(setp_).modifiers[1];
    if (!is_integer_compare(ins(setp_).modifiers[0]) ||
        (type != "s32" && type != "u32" && type != "b32"))
      return "its exit test " + ins(setp_).full_opcode() + " is not a 32-bit integer comparison";
    // The chain can go with the branch when nothing else reads its results.
    int consumer = out_.test_branch;
    for (const int s : chain) {
      const std::string& r = ins(s).operands[0].name;
      for (const int use : counts_.use_sites.at(r))
        if (in_range(use) && use != consumer) return "";
      if (read_after_loop(f_, r, out_.begin, out_.end)) return "";
      consumer = s;
    }
    out_.test_chain = chain;
    return "";
  }

  std::string find_induction() {
    const Instruction& setp = ins(setp_);
    const Operand& a = setp.operands[1];
    const Operand& b = setp.operands[2];
    const bool a_var = a.is_register() && !defs_in_loop(a.name).empty();
    const bool b_var = b.is_register() && !defs_in_loop(b.name).empty();
    if (a_var == b_var)
      return a_var ? "its exit test compares two registers the loop changes"
                   : "its exit test does not depend on the loop";
    var_on_left_ = a_var;
    const Operand& bound = a_var ? b : a;
    const std::string x = (a_var ? a : b).name;
    if (!immediate_value(bound, bound_)) {
      const std::optional<long long> v =
          bound.is_register()
              ? constant_before(f_, counts_, bound.name, preheader_, f_.blocks[preheader_].end)
              : std::nullopt;
      if (!v) return "bound " + bound.str() + " is not a constant";
      bound_ = *v;
    }
    const std::vector<int> xs = defs_in_loop(x);
    if (xs.size() != 1)
      return x + " is written " + std::to_string(xs.size()) + " times in the loop";
    std::string source;
    if (add_immediate(ins(xs[0]), source, out_.step) && source == x) {  // add i, i, step
      out_.induction = x;
      out_.update = xs[0];
    } else if (add_immediate(ins(xs[0]), source, out_.step)) {  // add t, i, step; mov i, t
      const std::vector<int> ys = defs_in_loop(source);
      if (ys.size() != 1 || !is_mov32(ins(ys[0])) || ins(ys[0]).operands[1].name != x ||
          block_of_[ys[0]] != block_of_[xs[0]] || ys[0] < xs[0])
        return x + " is not an induction register (its source " + source +
               " is not copied back from it)";
      set_update(source, x, ys[0], xs[0]);
    } else if (is_mov32(ins(xs[0])) && ins(xs[0]).operands[1].is_register()) {  // mov i, t
      const std::string t = ins(xs[0]).operands[1].name;
      const std::vector<int> ys = defs_in_loop(t);
      if (ys.size() != 1 || !add_immediate(ins(ys[0]), source, out_.step) || source != x ||
          block_of_[ys[0]] != block_of_[xs[0]] || ys[0] > xs[0])
        return x + " is not an induction register (" + t + " is not " + x + " plus a constant)";
      set_update(x, t, xs[0], ys[0]);
    } else {
      return "its exit test reads " + x +
             ", which is not an induction register (no add/sub of a constant)";
    }
    if (out_.step == 0) return "its induction step is 0";
    return "";
  }

  void set_update(const std::string& i, const std::string& t, int update, int temp_update) {
    out_.induction = i;
    out_.temp = t;
    out_.update = update;
    out_.temp_update = temp_update;
  }

  std::string count_passes() {
    const int u = block_of_[out_.update];
    for (const int latch : latches_) {
      if (!dominates(idom_, u, latch))
        return "the update of " + out_.induction + " does not run in every iteration";
      if (!dominates(idom_, exiting_, latch))
        return "its exit test does not run in every iteration";
    }
    const bool reads_temp = ins(setp_).operands[var_on_left_ ? 1 : 2].name == out_.temp;
    if (reads_temp && !before(out_.temp_update, setp_))
      return "its exit test reads " + out_.temp + " before it is written";
    const bool tested_after_update = reads_temp || before(out_.update, setp_);
    out_.update_before_exit = before(out_.update, out_.test_branch);
    for (int s = out_.begin; s < out_.end; ++s)
      out_.after_update.push_back(s != out_.update && before(out_.update, s));

    const std::optional<long long> start =
        constant_before(f_, counts_, out_.induction, preheader_, f_.blocks[preheader_].end);
    if (!start) return "the start value of " + out_.induction + " is not a constant";
    out_.start = *start;
    const bool is_signed = ins(setp_).modifiers[1] == "s32";
    const std::string& op = ins(setp_).modifiers[0];
    const long long bound = wrap32(bound_, is_signed);
    long long v = *start;
    for (long long n = 0; n <= kMaxPasses; ++n) {
      const long long x = wrap32(v + (tested_after_update ? out_.step : 0), is_signed);
      const bool taken =
          integer_compare(op, var_on_left_ ? x : bound, var_on_left_ ? bound : x) != flips_;
      if (taken == out_.exit_is_target) {
        out_.passes = n;
        out_.trip = n + (out_.update_before_exit ? 1 : 0);
        return "";
      }
      v = wrap32(v + out_.step, true);
    }
    return "its trip count is above " + std::to_string(kMaxPasses);
  }

  const Function& f_;
  const Loop& loop_;
  CountedLoop& out_;
  std::vector<int> idom_;
  std::vector<int> block_of_;
  RegisterCounts counts_;
  int preheader_ = -1, exiting_ = -1, exit_block_ = -1, setp_ = -1;
  std::vector<int> latches_;
  bool flips_ = false;       // the branch is taken when the setp result is false
  bool var_on_left_ = true;  // setp compares (i, bound) rather than (bound, i)
  long long bound_ = 0;
};

}  // namespace

std::string match_counted_loop(const Function& f, const Loop& loop, CountedLoop& out) {
  out = CountedLoop{};
  return LoopMatcher(f, loop, out).run();
}

}  // namespace gpucmp::ptx
