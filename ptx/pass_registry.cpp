// pass_registry(): every pass by name, and the wrappers that run a function
// pass over a module (pass_registry.h). Also pass_cleanup() and known_passes()
// (passes.h), which the registry defines.
#include "pass_registry.h"

#include <algorithm>

#include "cfg.h"

namespace gpucmp::ptx {
namespace {

// cleanup's steps, in order, and how its summary note counts what each did.
struct CleanupStep {
  const char* pass;
  const char* counted;
};
constexpr CleanupStep kCleanupSteps[] = {{"inline", "calls inlined"},
                                         {"promote-slots", "stack slots promoted"},
                                         {"copy-prop", "copies propagated"}};

void rebuild_blocks(Module& m) {
  for (Function& f : m.functions)
    if (f.has_body) build_blocks(f);
}

void append_notes(PassReport& to, const PassReport& from) {
  to.notes.insert(to.notes.end(), from.notes.begin(), from.notes.end());
}

// A function pass on every function with a body, as run_passes() always ran
// them: basic blocks rebuilt after each, reports summed.
template <PassReport (*Pass)(Function&, const PassContext&)>
PassReport over_functions(Module& m, const PassContext& context) {
  PassReport total;
  for (Function& f : m.functions) {
    if (!f.has_body) continue;
    const PassReport r = Pass(f, context);
    build_blocks(f);
    total.pass = r.pass;
    total.changed += r.changed;
    append_notes(total, r);
  }
  return total;
}

template <PassReport (*Pass)(Module&)>
PassReport on_module(Module& m, const PassContext&) {
  PassReport r = Pass(m);
  rebuild_blocks(m);
  return r;
}

PassReport mad(Function& f, const PassContext& c) { return pass_mad(f, c.allow_float_contraction); }
PassReport cse(Function& f, const PassContext&) { return pass_cse(f); }
PassReport licm(Function& f, const PassContext&) { return pass_licm(f); }
PassReport unroll(Function& f, const PassContext& c) { return pass_unroll(f, c.unroll_factor); }
PassReport ftz(Function& f, const PassContext&) { return pass_ftz(f); }
PassReport promote_slots(Function& f, const PassContext&) { return pass_promote_slots(f); }
PassReport copy_prop(Function& f, const PassContext&) { return pass_copy_prop(f); }

// The composite: its steps through the registry, `changed` summed, the notes
// of each after a summary of the counts.
PassReport cleanup(Module& m, const PassContext& context) {
  PassReport report{"cleanup", 0, {""}};
  for (const CleanupStep& step : kCleanupSteps) {
    const PassReport r = find_pass(step.pass)->run(m, context);
    report.notes[0] += std::string(report.notes[0].empty() ? "" : ", ") + step.counted + ": " +
                       std::to_string(r.changed);
    report.changed += r.changed;
    append_notes(report, r);
  }
  return report;
}

std::vector<std::string> cleanup_step_names() {
  std::vector<std::string> out;
  for (const CleanupStep& step : kCleanupSteps) out.emplace_back(step.pass);
  return out;
}

}  // namespace

const char* scope_name(PassScope scope) {
  return scope == PassScope::Function ? "function" : "module";
}

const std::vector<PassInfo>& pass_registry() {
  using S = PassScope;
  static const std::vector<PassInfo> passes = {
      {"inline",
       "inline every call to a .func the module defines (not recursive ones), then remove the "
       "functions left unused",
       S::Module,
       on_module<pass_inline>,
       {}},
      {"promote-slots",
       "turn the -O0 stack slots ([%SP+k] of one type and size) into registers, dropping the "
       "depot when none is left",
       S::Function,
       over_functions<promote_slots>,
       {}},
      {"copy-prop",
       "remove register-to-register movs inside basic blocks by renaming",
       S::Function,
       over_functions<copy_prop>,
       {}},
      {"cleanup", "clean up -O0 PTX: inline, promote-slots and copy-prop in this order", S::Module,
       cleanup, cleanup_step_names()},
      {"unroll",
       "unroll counted loops: fully when the trip count is known and <= 32, else by the unroll "
       "factor when it divides the trip count",
       S::Function,
       over_functions<unroll>,
       {}},
      {"cse",
       "common-subexpression elimination of pure instructions over the dominator tree",
       S::Function,
       over_functions<cse>,
       {}},
      {"mad",
       "fuse mul.lo + add into mad.lo (f32 mul + add into fma.rn only with contraction)",
       S::Function,
       over_functions<mad>,
       {}},
      {"licm",
       "hoist loop-invariant pure instructions into the loop's preheader",
       S::Function,
       over_functions<licm>,
       {}},
      {"align",
       "raise the alignment of .shared arrays to 16 bytes (for 128-bit loads)",
       S::Module,
       on_module<pass_align>,
       {}},
      {"ftz",
       "add .ftz to single-precision arithmetic (a control, not in the study's chain)",
       S::Function,
       over_functions<ftz>,
       {}},
      {"shared32",
       "address .shared memory in 32 bits as nvcc does (a control, not in the study's chain)",
       S::Module,
       on_module<pass_shared32>,
       {}},
      {"cpasync",
       "copy loops of ld.global and st.shared as cp.async, waited for at the barriers after the "
       "copy's own (a control, not in the study's chain)",
       S::Module,
       on_module<pass_cpasync>,
       {}},
      {"cpasync-nobar",
       "cpasync, then each copy's own barrier removed (OpenCL's copies have none; a control, "
       "not in the study's chain)",
       S::Module,
       on_module<pass_cpasync_nobar>,
       {}},
  };
  return passes;
}

const PassInfo* find_pass(const std::string& name) {
  for (const PassInfo& p : pass_registry())
    if (p.name == name) return &p;
  return nullptr;
}

PassReport pass_cleanup(Module& m) { return cleanup(m, PassContext{}); }

// The passes that are not a composite's step, in registry order.
const std::vector<std::string>& known_passes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> steps, out;
    for (const PassInfo& p : pass_registry())
      steps.insert(steps.end(), p.steps.begin(), p.steps.end());
    for (const PassInfo& p : pass_registry())
      if (std::find(steps.begin(), steps.end(), p.name) == steps.end()) out.push_back(p.name);
    return out;
  }();
  return names;
}

}  // namespace gpucmp::ptx
