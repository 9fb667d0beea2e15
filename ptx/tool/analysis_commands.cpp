#include "analysis_commands.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <string>
#include <utility>

#include "errors.h"
#include "options.h"
#include "output_file.h"
#include "ptx/diff.h"
#include "ptx/files.h"
#include "ptx/normalize.h"
#include "ptx/parse_error.h"
#include "ptx/parser.h"
#include "ptx/pass_registry.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptx/sass.h"
#include "ptx/sass_compare.h"
#include "ptx/stats.h"

namespace gpucmp::ptxtool {

namespace {

// The text of an input file, refused (UsageError, one line) when it cannot be
// `kind` at all: unreadable, a folder, empty or binary.
std::string read_input(const std::string& path, const std::string& kind) {
  std::string text, reason;
  if (!ptx::try_read_text_file(path, text, reason))
    throw UsageError(path + ": cannot read: " + reason);
  if (const std::string why = ptx::why_not_text(text); !why.empty())
    throw UsageError(path + ": " + why + ", not " + kind);
  return text;
}

// A PTX module; a file without .version (which every PTX module begins with)
// is refused too, since the parser takes any text of comments for a module.
ptx::Module load(const std::string& path) {
  const std::string text = read_input(path, "PTX");
  ptx::Module m;
  try {
    m = ptx::parse(text, path);
  } catch (const ptx::ParseError& e) {
    throw UsageError(std::string("malformed PTX: ") + e.what());
  }
  if (!m.version) throw UsageError(path + ": not PTX (no .version directive)");
  return m;
}

// cuobjdump -sass text with at least one instruction: an empty count would
// otherwise pass for a kernel without instructions.
ptx::SassStats load_sass(const std::string& path) {
  ptx::SassStats s = ptx::parse_sass(read_input(path, "SASS"));
  if (s.total.total == 0)
    throw UsageError(path +
                     ": not SASS (no instruction lines such as "
                     "\"/*0040*/ FFMA R4, R2, R3, R4 ;\")");
  return s;
}

// A .sass file, or text whose first line is a "// SASS..." label.
bool is_sass_file(const std::string& path) {
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".sass") == 0) return true;
  std::string text, reason;
  if (!ptx::try_read_text_file(path, text, reason)) return false;  // load() says why
  return text.rfind("// SASS", 0) == 0;
}

// Every registered pass, in the registry's order: "inline, promote-slots, ...".
std::string registered_pass_names() {
  std::string out;
  for (const ptx::PassInfo& p : ptx::pass_registry()) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

// One line per registered pass: name, scope, description, in aligned columns.
std::string pass_listing() {
  std::size_t width = 0;
  for (const ptx::PassInfo& p : ptx::pass_registry()) width = std::max(width, p.name.size());
  std::string out;
  for (const ptx::PassInfo& p : ptx::pass_registry()) {
    const std::string scope = ptx::scope_name(p.scope);
    out += p.name + std::string(width + 2 - p.name.size(), ' ') + scope +
           std::string(10 - scope.size(), ' ') + p.description + "\n";
  }
  return out;
}

}  // namespace

void add_analysis_commands(CLI::App& app, AnalysisOptions& opts) {
  auto* norm = app.add_subcommand("normalize", "Print canonical PTX (renumbered, no debug)");
  norm->add_option("file", opts.files, "PTX file")->required()->expected(1);
  add_path_option(*norm, "-o,--out", opts.out, "Write here instead of stdout");

  auto* stats = app.add_subcommand("stats", "Instruction mix per kernel, in and out of loops");
  stats->add_option("files", opts.files, "PTX files")->required();
  stats
      ->add_option("--sass", opts.sass,
                   "cuobjdump -sass output to count too; repeatable, e.g. the driver JIT's "
                   "X.sass and offline ptxas' X.ptxas.sass. Each is shown with its source, "
                   "the file's first line \"// SASS: ...\"")
      ->expected(1)
      ->take_all();
  stats->add_flag("--json", opts.json, "JSON instead of a table");

  auto* opt =
      app.add_subcommand("opt", "Apply IR passes (gpucmp-ptx passes lists them) and print the PTX");
  opt->add_option("file", opts.files, "PTX file")->required()->expected(1);
  opt->add_option_function<std::string>(
         "--passes",
         [&opts](const std::string& list) {
           // A pass may repeat (the list is an order), but none may be empty.
           std::size_t start = 0;
           for (;;) {
             const std::size_t comma = list.find(',', start);
             std::string name =
                 list.substr(start, comma == std::string::npos ? comma : comma - start);
             if (name.empty())
               throw CLI::ValidationError("--passes '" + list +
                                          "': an empty pass name (comma-separated, none empty)");
             opts.passes.push_back(std::move(name));
             if (comma == std::string::npos) break;
             start = comma + 1;
           }
         },
         "Comma-separated, applied in order, e.g. cleanup,unroll,cse,mad,licm,align. Known: " +
             registered_pass_names())
      ->required();
  opt->add_flag("--contract", opts.contract,
                "Allow float mul+add -> fma (a semantic change, recorded in the header)");
  add_path_option(*opt, "-o,--out", opts.out, "Write here instead of stdout");

  app.add_subcommand("passes",
                     "List the IR passes opt takes: name, scope and description, one per line");

  auto* diff = app.add_subcommand(
      "diff",
      "Normalized diff and stats table; exit 1 if different. Two .sass files: their "
      "instruction counts by class and opcode side by side, exit 1 if any differs");
  diff->add_option("a", opts.diff_a, "First PTX (or .sass) file")->required();
  diff->add_option("b", opts.diff_b, "Second PTX (or .sass) file")->required();
}

namespace {
// stdout, or the file -o names, written whole or not at all (output_file.h:
// a device or a link's target written in place, a regular file replaced).
void emit(const std::string& text, const std::string& out_path) {
  if (out_path.empty()) {
    std::cout << text;
    return;
  }
  write_output_file(out_path, text);
}
}  // namespace

int run_analysis(const CLI::App& app, const AnalysisOptions& opts) {
  if (app.got_subcommand("normalize")) {
    ptx::Module m = load(opts.files.at(0));
    ptx::normalize(m);
    emit(ptx::print(m), opts.out);
    return kExitOk;
  }
  if (app.got_subcommand("opt")) {
    ptx::Module m = load(opts.files.at(0));
    std::string header;
    try {
      header = ptx::run_passes(m, opts.passes, opts.contract, nullptr);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--passes: ") + e.what());
    }
    emit(header + ptx::print(m), opts.out);
    return kExitOk;
  }
  if (app.got_subcommand("passes")) {
    std::cout << pass_listing();
    return kExitOk;
  }
  if (app.got_subcommand("stats")) {
    // Every file is read before anything is printed: a bad one stops the
    // command with its one error line and no half-printed output.
    std::vector<ptx::Stats> ptx_stats;
    std::vector<ptx::SassStats> sass_stats;
    for (const auto& f : opts.files) ptx_stats.push_back(ptx::compute_stats(load(f)));
    for (const auto& f : opts.sass) sass_stats.push_back(load_sass(f));
    nlohmann::json all = nlohmann::json::object();
    for (std::size_t i = 0; i < opts.files.size(); ++i) {
      const std::string& f = opts.files[i];
      if (opts.json)
        all[f] = ptx::to_json(ptx_stats[i]);
      else
        std::cout << "== " << f << "\n" << ptx::to_table(ptx_stats[i]) << "\n";
    }
    for (std::size_t i = 0; i < opts.sass.size(); ++i) {
      const std::string& f = opts.sass[i];
      const ptx::SassStats& s = sass_stats[i];
      if (opts.json) {
        all[f] = ptx::to_json(s);
      } else {
        std::cout << "== " << f << " ("
                  << (s.source.empty() ? "SASS, source not labelled" : s.source) << ")\n"
                  << ptx::to_json(s).dump(2) << "\n";
      }
    }
    if (opts.json) std::cout << all.dump(2) << "\n";
    return kExitOk;
  }
  if (is_sass_file(opts.diff_a) && is_sass_file(opts.diff_b)) {
    const ptx::SassComparison c =
        ptx::compare_sass(load_sass(opts.diff_a), load_sass(opts.diff_b), opts.diff_a, opts.diff_b);
    std::cout << c.table;
    return c.equal ? 0 : 1;
  }
  const ptx::DiffResult d =
      ptx::diff(load(opts.diff_a), load(opts.diff_b), opts.diff_a, opts.diff_b);
  std::cout << d.unified << (d.unified.empty() ? "" : "\n") << d.stats_table;
  return d.equal ? 0 : 1;
}

}  // namespace gpucmp::ptxtool
