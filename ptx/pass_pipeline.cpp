// run_passes(): the named passes in order over every function with a body.
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

std::string run_passes(Module& m, const std::vector<std::string>& names, bool allow_float_contraction,
                       std::vector<PassReport>* reports) {
  for (const std::string& name : names)
    if (name != "cleanup" && name != "unroll" && name != "mad" && name != "cse" && name != "licm")
      throw std::invalid_argument("unknown PTX pass '" + name +
                                  "' (known: cleanup, unroll, cse, mad, licm)");
  std::string header = "// gpucmp-ptx opt: passes " + join(names, ",") +
                       "; float contraction: " + (allow_float_contraction ? "on" : "off") + "\n";
  for (const std::string& name : names) {
    PassReport total{name, 0, {}};
    if (name == "cleanup") total = pass_cleanup(m);  // module-wide: it inlines calls
    for (Function& f : m.functions) {
      if (!f.has_body) continue;
      if (name == "cleanup") {
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
