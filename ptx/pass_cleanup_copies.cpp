// Copy propagation inside basic blocks (pass_cleanup_steps.h: propagate_copies).
// After slot promotion, clang -O0's `ld.u32 %r9, [%SP+48]` is `mov.u32 %r9,
// %sl48` and its `st.u32 [%SP+52], %r40` is `mov.u32 %sl52, %r40`; removing
// those copies makes the variables themselves visible to the later passes
// (`setp.lt.s32 %p3, %sl52, 16`, `add.s32 %sl52, %sl52, 1`). Only register to
// register movs between registers of one class, never a constant.
#include <algorithm>
#include <set>

#include "cfg.h"
#include "pass_cleanup_steps.h"
#include "pass_common.h"

namespace gpucmp::ptx::cleanup {
namespace {

bool is_register_copy(const Instruction& ins) {
  return ins.opcode == "mov" && !ins.guard && ins.modifiers.size() == 1 &&
         ins.operands.size() == 2 && ins.operands[0].is_register() &&
         ins.operands[1].is_register() && !ins.operands[1].negated &&
         ins.operands[0].name != ins.operands[1].name;
}

bool any_in(const std::vector<int>& sites, int after, int before) {
  for (const int s : sites)
    if (s > after && s < before) return true;
  return false;
}

const std::vector<int>& sites(const std::map<std::string, std::vector<int>>& all,
                              const std::string& reg) {
  static const std::vector<int> kNone;
  const auto it = all.find(reg);
  return it == all.end() ? kNone : it->second;
}

// Scope depth of each statement: registers declared in a { } block (inline
// asm) must not leave it, so copies inside scopes are left alone.
std::vector<int> scope_depths(const Function& f) {
  std::vector<int> depth(f.body.size(), 0);
  int d = 0;
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    if (f.body[i].kind == Statement::Kind::ScopeClose) --d;
    depth[i] = d;
    if (f.body[i].kind == Statement::Kind::ScopeOpen) ++d;
  }
  return depth;
}

// One sweep of both rules over f; registers touched once are skipped for the
// rest of the sweep because the counts no longer describe them.
int sweep(Function& f, std::set<std::string>& involved) {
  const RegisterCounts counts = count_registers(f);
  const RegisterClasses classes(f);
  const std::vector<int> block_of = block_of_statements(f);
  const std::vector<int> depth = scope_depths(f);
  std::set<std::string> touched;
  std::vector<bool> remove(f.body.size(), false);
  int changed = 0;
  for (std::size_t j = 0; j < f.body.size(); ++j) {
    const int at = static_cast<int>(j);
    if (f.body[j].kind != Statement::Kind::Instruction || depth[j] > 0 ||
        !is_register_copy(f.body[j].instruction))
      continue;
    const std::string dst = f.body[j].instruction.operands[0].name;
    const std::string src = f.body[j].instruction.operands[1].name;
    if (touched.count(dst) || touched.count(src) || classes.of(dst).empty() ||
        classes.of(dst) != classes.of(src))
      continue;
    // Forward: `mov dst, src` then uses of dst later in this block only, with
    // src unchanged until the last of them -> the uses read src.
    const std::vector<int>& uses = sites(counts.use_sites, dst);
    bool forward = counts.def_count(dst) == 1 && !uses.empty();
    int last = at;
    for (const int u : uses) {
      forward = forward && u > at && block_of[u] == block_of[at] && depth[u] == 0;
      last = std::max(last, u);
    }
    if (forward && !any_in(sites(counts.def_sites, src), at, last)) {
      for (const int u : uses) rename_uses(f.body[u].instruction, {{dst, src}});
    } else {
      // Backward: `op src, ...` whose only use is `mov dst, src` later in this
      // block, dst neither read nor written in between -> `op dst, ...`.
      const std::vector<int>& defs = sites(counts.def_sites, src);
      if (counts.def_count(src) != 1 || defs.size() != 1 || counts.use_count(src) != 1) continue;
      const int i = defs.front();
      Instruction& def = f.body[i].instruction;
      const std::vector<std::string> written = defined_registers(def);
      const std::vector<std::string> read = used_registers(def);
      if (i >= at || block_of[i] != block_of[at] || depth[i] > 0 || def.guard ||
          !def.operands[0].is_register() || written.size() != 1 ||
          std::find(read.begin(), read.end(), src) != read.end() ||
          any_in(sites(counts.use_sites, dst), i, at) ||
          any_in(sites(counts.def_sites, dst), i, at))
        continue;
      def.operands[0].name = dst;
      def.operands[0].text = dst;
    }
    remove[j] = true;
    touched.insert(dst);
    touched.insert(src);
    ++changed;
  }
  if (changed > 0) erase_statements(f, remove);
  involved.insert(touched.begin(), touched.end());
  return changed;
}

}  // namespace

int propagate_copies(Function& f) {
  build_blocks(f);
  int total = 0;
  std::set<std::string> involved;
  for (int n = sweep(f, involved); n > 0; n = sweep(f, involved)) total += n;
  // A slot register written once and copied out is now unused: drop its .reg.
  const RegisterCounts counts = count_registers(f);
  std::set<std::string> unused;
  for (const std::string& r : involved)
    if (counts.def_count(r) == 0 && counts.use_count(r) == 0) unused.insert(r);
  std::vector<bool> remove(f.body.size(), false);
  drop_declarators(f, unused, remove);
  erase_statements(f, remove);
  return total;
}

}  // namespace gpucmp::ptx::cleanup
