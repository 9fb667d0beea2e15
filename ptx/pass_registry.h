// The registry of PTX passes: every pass run_passes() (passes.h) and
// `gpucmp-ptx opt` know, with its name, a one-line description, its scope and
// how to run it on a module. The order is the study's: cleanup's three steps,
// cleanup itself (their sequence), unroll, cse, mad, licm, align, then the
// controls outside the chain, ftz, shared32, cpasync and cpasync-nobar.
#pragma once
#include <string>
#include <vector>

#include "ir.h"
#include "passes.h"

namespace gpucmp::ptx {

// What a pass needs besides the module.
struct PassContext {
  bool allow_float_contraction = false;  // mad: float mul+add -> fma.rn.f32
  int unroll_factor = 4;                 // unroll: partial unrolling factor
};

// Function passes look at one body at a time; module passes also read or
// edit what lies outside a body (other functions, module-scope variables).
enum class PassScope { Function, Module };

// "function" or "module".
const char* scope_name(PassScope scope);

struct PassInfo {
  std::string name;         // as run_passes() and --passes take it: "cse", "promote-slots"
  std::string description;  // one line
  PassScope scope;
  // Runs the pass on every function with a body (a function pass sums its
  // reports over them), leaving the basic blocks of each rebuilt.
  PassReport (*run)(Module& m, const PassContext& context);
  // A composite pass: the registered passes it runs, in order; else empty.
  std::vector<std::string> steps;
};

// Every registered pass, once each, in the study's order.
const std::vector<PassInfo>& pass_registry();

// The entry named `name`, or nullptr.
const PassInfo* find_pass(const std::string& name);

// run_passes() (passes.h) with every setting a pass takes.
std::string run_passes(Module& m, const std::vector<std::string>& names, const PassContext& context,
                       std::vector<PassReport>* reports);

}  // namespace gpucmp::ptx
