// run_passes(): the named passes of the registry in order (passes.h,
// pass_registry.h).
#include <stdexcept>
#include <string>
#include <vector>

#include "pass_registry.h"
#include "passes.h"

namespace gpucmp::ptx {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

// "cleanup, unroll, ...; cleanup's steps: inline, promote-slots, copy-prop".
std::string known_names() {
  std::string out = join(known_passes(), ", ");
  for (const PassInfo& p : pass_registry())
    if (!p.steps.empty()) out += "; " + p.name + "'s steps: " + join(p.steps, ", ");
  return out;
}

}  // namespace

int count_instructions(const Function& f) {
  int n = 0;
  for (const Statement& s : f.body) n += s.kind == Statement::Kind::Instruction;
  return n;
}

std::string run_passes(Module& m, const std::vector<std::string>& names,
                       bool allow_float_contraction, std::vector<PassReport>* reports) {
  PassContext context;
  context.allow_float_contraction = allow_float_contraction;
  return run_passes(m, names, context, reports);
}

std::string run_passes(Module& m, const std::vector<std::string>& names, const PassContext& context,
                       std::vector<PassReport>* reports) {
  std::vector<const PassInfo*> passes;
  for (const std::string& name : names) {
    passes.push_back(find_pass(name));
    if (!passes.back())
      throw std::invalid_argument("unknown PTX pass '" + name + "' (known: " + known_names() + ")");
  }
  std::string header = "// gpucmp-ptx opt: passes " + join(names, ",") +
                       "; float contraction: " + (context.allow_float_contraction ? "on" : "off") +
                       "\n";
  for (const PassInfo* pass : passes) {
    PassReport total = pass->run(m, context);
    total.pass = pass->name;
    header += "// " + pass->name + ": " + std::to_string(total.changed) + " changed";
    header += total.notes.empty() ? "\n" : " (" + join(total.notes, "; ") + ")\n";
    if (reports) reports->push_back(std::move(total));
  }
  return header;
}

}  // namespace gpucmp::ptx
