// run_passes(): the named passes in order over every function with a body.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cfg.h"
#include "passes.h"

namespace gpucmp::ptx {
namespace {

constexpr int kDefaultUnrollFactor = 4;

PassReport run_pass(const std::string& name, Function& f, bool allow_float_contraction) {
  if (name == "mad") return pass_mad(f, allow_float_contraction);
  if (name == "cse") return pass_cse(f);
  if (name == "unroll") return pass_unroll(f, kDefaultUnrollFactor);
  if (name == "ftz") return pass_ftz(f);
  return pass_licm(f);
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

}  // namespace

int count_instructions(const Function& f) {
  int n = 0;
  for (const Statement& s : f.body) n += s.kind == Statement::Kind::Instruction;
  return n;
}

const std::vector<std::string>& known_passes() {
  static const std::vector<std::string> names = {"cleanup", "unroll", "cse", "mad",
                                                 "licm",    "align",  "ftz", "shared32"};
  return names;
}

std::string run_passes(Module& m, const std::vector<std::string>& names,
                       bool allow_float_contraction, std::vector<PassReport>* reports) {
  const std::vector<std::string>& known = known_passes();
  for (const std::string& name : names)
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw std::invalid_argument("unknown PTX pass '" + name + "' (known: " + join(known, ", ") +
                                  ")");
  std::string header = "// gpucmp-ptx opt: passes " + join(names, ",") +
                       "; float contraction: " + (allow_float_contraction ? "on" : "off") + "\n";
  for (const std::string& name : names) {
    PassReport total{name, 0, {}};
    // Module-wide: cleanup inlines calls, align also edits module-scope
    // variables, shared32 needs the module's .shared symbols.
    const bool module_wide = name == "cleanup" || name == "align" || name == "shared32";
    if (name == "cleanup") total = pass_cleanup(m);
    if (name == "align") total = pass_align(m);
    if (name == "shared32") total = pass_shared32(m);
    for (Function& f : m.functions) {
      if (!f.has_body) continue;
      if (module_wide) {
        build_blocks(f);
        continue;
      }
      PassReport r = run_pass(name, f, allow_float_contraction);
      build_blocks(f);
      total.changed += r.changed;
      total.notes.insert(total.notes.end(), r.notes.begin(), r.notes.end());
    }
    header += "// " + name + ": " + std::to_string(total.changed) + " changed";
    header += total.notes.empty() ? "\n" : " (" + join(total.notes, "; ") + ")\n";
    if (reports) reports->push_back(std::move(total));
  }
  return header;
}

}  // namespace gpucmp::ptx
