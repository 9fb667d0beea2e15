// pass_cpasync(): the global-to-shared copy loops of a work-group copy as
// cp.async, waited for at the barriers after the copy's own (passes.h).
//
// Why: NVIDIA's OpenCL compiler lowers async_work_group_copy, before its JIT,
// to a loop of ld.global and st.shared of the loaded value, strided by the
// work-group size, followed by `bar.sync 0`, and each wait_group_events to one
// more `bar.sync` (results/nvidia-h200/2026-11-28-advection-async-ptx/): every
// store waits for its load, and the copy is over before the next instruction.
// CUDA's cp.async (LDGSTS) lets the copy run behind the work that follows.
//
// What it rewrites: a loop of one basic block that branches back to itself,
// whose instructions are arithmetic, moves, compares, reads of kernel
// parameters (ld.param), one or more ld.global
// and as many st.shared, each load's value (a register or a vector of them,
// defined by that load alone and read by that store alone) stored by a later
// store of the same width (4, 8 or 16 bytes), its address register not
// written in between, and no guard on either. The pair becomes
// `cp.async.ca.shared.global [store's address], [load's address], size` at the
// store; the load goes.
//
// Why the program computes the same: the copy reads and writes what the pair
// did. A thread's cp.async are complete after its `cp.async.wait_all`, put
// before every barrier (bar, barrier), call, ret and exit of the function,
// except the first barrier of the block a rewritten loop exits to, where only
// register arithmetic and parameter reads precede it: the copy's own barrier,
// which still orders everything else. OpenCL allows the
// copied data to be read only after wait_group_events, which NVIDIA's compiler
// writes as a later barrier, and that one waits. A module whose target has no
// cp.async (below sm_80, or PTX ISA below 7.0) is left as it is.
//
// pass_cpasync_nobar(): the same, then each copy's own barrier removed.
// OpenCL gives async_work_group_copy no barrier, so a conforming program does
// not rely on the one NVIDIA's lowering adds; the row prices that barrier.
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cfg.h"
#include "pass_cleanup_steps.h"
#include "pass_common.h"
#include "passes.h"

namespace gpucmp::ptx {
namespace {

// Opcodes a copy loop may hold besides its loads, stores and back branch:
// register arithmetic, moves and compares, none of which touches memory.
bool is_register_only(const Instruction& in) {
  static const std::set<std::string> ops = {"add",  "sub",  "mul", "mad", "shl", "shr",
                                            "and",  "or",   "xor", "not", "cvt", "mov",
                                            "setp", "selp", "min", "max", "neg"};
  if (!ops.count(in.opcode)) return false;
  for (const Operand& op : in.operands)
    if (op.kind == Operand::Kind::Memory) return false;
  return true;
}

// Register arithmetic, or a read of a kernel parameter (NVIDIA's compiler
// reloads them inside loops): nothing another thread can see or change.
bool is_quiet(const Instruction& in) {
  if (in.opcode == "ld" && in.has_modifier("param")) return true;
  return is_register_only(in);
}

bool is_barrier(const Instruction& in) { return in.opcode == "bar" || in.opcode == "barrier"; }

// Bytes one access moves: its type times its vector width; 0 for a form the
// pass leaves alone.
int access_bytes(const Instruction& in) {
  const std::string type = in.type();
  int bytes = 0;
  if (type == "f32" || type == "b32" || type == "u32" || type == "s32") bytes = 4;
  if (type == "f64" || type == "b64" || type == "u64" || type == "s64") bytes = 8;
  if (in.has_modifier("v2")) bytes *= 2;
  if (in.has_modifier("v4")) bytes *= 4;
  return bytes == 4 || bytes == 8 || bytes == 16 ? bytes : 0;
}

// ld.global[.nc] of a plain register or vector, unguarded; st.shared of one.
bool is_global_load(const Instruction& in) {
  if (in.opcode != "ld" || in.guard || in.operands.size() != 2 || !in.has_modifier("global"))
    return false;
  for (const std::string& m : in.modifiers)
    if (m == "volatile" || m == "relaxed" || m == "acquire" || m.rfind("L2", 0) == 0) return false;
  return access_bytes(in) > 0 && in.operands[1].kind == Operand::Kind::Memory;
}

bool is_shared_store(const Instruction& in) {
  if (in.opcode != "st" || in.guard || in.operands.size() != 2) return false;
  if (!in.has_modifier("shared") || in.has_modifier("volatile")) return false;
  return access_bytes(in) > 0 && in.operands[0].kind == Operand::Kind::Memory;
}

// The registers an ld writes: its register or the elements of its vector.
std::vector<std::string> value_registers(const Operand& value) {
  if (value.kind == Operand::Kind::Register) return {value.name};
  std::vector<std::string> out;
  if (value.kind != Operand::Kind::Vector) return out;
  for (const Operand& e : value.elements) {
    if (e.kind != Operand::Kind::Register) return {};
    out.push_back(e.name);
  }
  return out;
}

struct Copy {
  int load = 0;   // body index of the ld.global
  int store = 0;  // body index of the st.shared
  int bytes = 0;
};

class CpAsync {
 public:
  // drop_own_barriers: remove each copy's own barrier (pass_cpasync_nobar).
  CpAsync(Function& f, bool drop_own_barriers)
      : f_(f), counts_(count_registers(f)), drop_own_(drop_own_barriers) {}

  PassReport run() {
    PassReport r{drop_own_ ? "cpasync-nobar" : "cpasync", 0, {}};
    std::vector<Copy> copies;
    std::set<int> own_barriers;
    int loops = 0;
    for (std::size_t b = 0; b < f_.blocks.size(); ++b) {
      std::vector<Copy> found = loop_copies(int(b));
      if (found.empty()) continue;
      ++loops;
      copies.insert(copies.end(), found.begin(), found.end());
      const int own = exit_barrier(int(b));
      if (own >= 0) own_barriers.insert(own);
    }
    if (copies.empty()) return r;
    rewrite(copies, own_barriers);
    r.changed = int(copies.size());
    r.notes.push_back(
        f_.name + ": " + std::to_string(copies.size()) + " copies in " + std::to_string(loops) +
        " loops as cp.async, " + std::to_string(waits_) +
        " cp.async.wait_all before barriers, calls and exits, " +
        std::to_string(own_barriers.size()) +
        (drop_own_ ? " copy barriers removed" : " copy barriers left without a wait"));
    return r;
  }

 private:
  // The copies of block b when it is a copy loop (see the file comment), else none.
  std::vector<Copy> loop_copies(int b) const {
    const BasicBlock& block = f_.blocks[std::size_t(b)];
    bool loops_back = false;
    for (const int s : block.successors) loops_back = loops_back || s == b;
    if (!loops_back) return {};
    std::vector<Copy> copies;
    std::map<std::string, int> pending;  // a loaded register -> its load's index
    for (int i = block.begin; i < block.end; ++i) {
      const Statement& s = f_.body[std::size_t(i)];
      if (s.kind != Statement::Kind::Instruction) continue;
      const Instruction& in = s.instruction;
      if (in.opcode == "bra" && i == insertion_point(f_, b)) continue;  // the back branch
      if (is_global_load(in)) {
        const std::vector<std::string> regs = value_registers(in.operands[0]);
        if (regs.empty()) return {};
        for (const std::string& reg : regs) {
          if (counts_.def_count(reg) != 1 || counts_.use_count(reg) != 1) return {};
          pending[reg] = i;
        }
        continue;
      }
      if (is_shared_store(in)) {
        const int load = stored_load(in, pending);
        if (load < 0 || access_bytes(in) != access_bytes(f_.body[std::size_t(load)].instruction))
          return {};
        if (address_written_between(load, i)) return {};
        for (const std::string& reg : value_registers(in.operands[1])) pending.erase(reg);
        copies.push_back({load, i, access_bytes(in)});
        continue;
      }
      if (!is_quiet(in)) return {};
    }
    if (!pending.empty()) return {};  // a load whose value is not stored here
    return copies;
  }

  // The load whose every register the store stores, in order; -1 for none.
  static int stored_load(const Instruction& store, const std::map<std::string, int>& pending) {
    const std::vector<std::string> regs = value_registers(store.operands[1]);
    int load = -1;
    for (const std::string& reg : regs) {
      const auto it = pending.find(reg);
      if (it == pending.end() || (load >= 0 && it->second != load)) return -1;
      load = it->second;
    }
    return load;
  }

  // Whether an instruction after `load` and before `store` writes the load's
  // address register (the copy reads the address at the store).
  bool address_written_between(int load, int store) const {
    const std::string& base = f_.body[std::size_t(load)].instruction.operands[1].name;
    for (int i = load + 1; i < store; ++i) {
      const Statement& s = f_.body[std::size_t(i)];
      if (s.kind != Statement::Kind::Instruction) continue;
      for (const std::string& d : defined_registers(s.instruction))
        if (d == base) return true;
    }
    return false;
  }

  // The body index of the barrier of the block loop b exits to, where only
  // register arithmetic and parameter reads come before it; else -1.
  int exit_barrier(int b) const {
    for (const int s : f_.blocks[std::size_t(b)].successors) {
      if (s == b) continue;
      const BasicBlock& exit = f_.blocks[std::size_t(s)];
      for (int i = exit.begin; i < exit.end; ++i) {
        const Statement& st = f_.body[std::size_t(i)];
        if (st.kind != Statement::Kind::Instruction) continue;
        if (is_barrier(st.instruction)) return i;
        if (!is_quiet(st.instruction) || st.instruction.guard) return -1;
      }
    }
    return -1;
  }

  void rewrite(const std::vector<Copy>& copies, const std::set<int>& own_barriers) {
    std::map<int, Copy> at_store;
    std::set<int> loads;
    for (const Copy& c : copies) {
      at_store[c.store] = c;
      loads.insert(c.load);
    }
    std::vector<Statement> body;
    for (std::size_t i = 0; i < f_.body.size(); ++i) {
      const Statement& s = f_.body[i];
      if (loads.count(int(i))) continue;
      if (drop_own_ && own_barriers.count(int(i))) continue;
      if (s.kind == Statement::Kind::Instruction && needs_wait(s.instruction) &&
          !own_barriers.count(int(i))) {
        Statement wait;
        wait.instruction = cleanup::make_instruction("cp", {"async", "wait_all"}, {});
        body.push_back(wait);
        ++waits_;
      }
      const auto copy = at_store.find(int(i));
      if (copy == at_store.end()) {
        body.push_back(s);
        continue;
      }
      const Instruction& load = f_.body[std::size_t(copy->second.load)].instruction;
      Operand bytes;
      bytes.kind = Operand::Kind::Immediate;
      bytes.value = std::to_string(copy->second.bytes);
      Statement cp = s;
      cp.instruction =
          cleanup::make_instruction("cp", {"async", "ca", "shared", "global"},
                                    {s.instruction.operands[0], load.operands[1], bytes});
      body.push_back(cp);
    }
    f_.body = std::move(body);
  }

  static bool needs_wait(const Instruction& in) {
    return is_barrier(in) || in.opcode == "call" || in.opcode == "ret" || in.opcode == "exit";
  }

  Function& f_;
  RegisterCounts counts_;
  bool drop_own_;
  int waits_ = 0;
};

// sm_80 and later, PTX ISA 7.0 and later: where cp.async exists.
bool has_cp_async(const Module& m, std::string& why) {
  const std::string target = m.sm_target();
  const std::size_t digits = target.find_first_of("0123456789");
  const int sm = digits == std::string::npos ? 0 : std::atoi(target.c_str() + digits);
  if (sm < 80) {
    why = "target '" + target + "' has no cp.async (sm_80 and later): nothing changed";
    return false;
  }
  const std::string version = m.version.value_or("0.0");
  const int major = std::atoi(version.c_str());
  if (major < 7) {
    why = "PTX ISA " + version + " has no cp.async (7.0 and later): nothing changed";
    return false;
  }
  return true;
}

}  // namespace

namespace {

PassReport run_cpasync(Module& m, bool drop_own_barriers) {
  PassReport total{drop_own_barriers ? "cpasync-nobar" : "cpasync", 0, {}};
  std::string why;
  if (!has_cp_async(m, why)) {
    total.notes.push_back(why);
    return total;
  }
  for (Function& f : m.functions) {
    if (!f.has_body) continue;
    const PassReport r = CpAsync(f, drop_own_barriers).run();
    total.changed += r.changed;
    total.notes.insert(total.notes.end(), r.notes.begin(), r.notes.end());
  }
  return total;
}

}  // namespace

PassReport pass_cpasync(Module& m) { return run_cpasync(m, false); }

PassReport pass_cpasync_nobar(Module& m) { return run_cpasync(m, true); }

}  // namespace gpucmp::ptx
