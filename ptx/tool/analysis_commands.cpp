#include "analysis_commands.h"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "errors.h"
#include "ptx/diff.h"
#include "ptx/normalize.h"
#include "ptx/parse_error.h"
#include "ptx/parser.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptx/sass.h"
#include "ptx/sass_compare.h"
#include "ptx/stats.h"

namespace gpucmp::ptxtool {

namespace {

ptx::Module load(const std::string& path) {
  try {
    return ptx::parse_file(path);
  } catch (const ptx::ParseError& e) {
    throw UsageError(std::string("malformed PTX: ") + e.what());
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError(path + ": cannot open for reading");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A .sass file, or text whose first line is a "// SASS..." label.
bool is_sass_file(const std::string& path) {
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".sass") == 0) return true;
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  return first.rfind("// SASS", 0) == 0;
}

}  // namespace

void add_analysis_commands(CLI::App& app, AnalysisOptions& opts) {
  auto* norm = app.add_subcommand("normalize", "Print canonical PTX (renumbered, no debug)");
  norm->add_option("file", opts.files, "PTX file")->required()->expected(1);
  norm->add_option("-o,--out", opts.out, "Write here instead of stdout");

  auto* stats = app.add_subcommand("stats", "Instruction mix per kernel, in and out of loops");
  stats->add_option("files", opts.files, "PTX files")->required();
  stats->add_option("--sass", opts.sass,
                    "cuobjdump -sass output to count too; repeatable, e.g. the driver JIT's "
                    "X.sass and offline ptxas' X.ptxas.sass. Each is shown with its source, "
                    "the file's first line \"// SASS: ...\"")
      ->expected(1)
      ->take_all();
  stats->add_flag("--json", opts.json, "JSON instead of a table");

  auto* opt = app.add_subcommand("opt", "Apply IR passes (cleanup, unroll, cse, mad, licm, align, ftz) and print the PTX");
  opt->add_option("file", opts.files, "PTX file")->required()->expected(1);
  opt->add_option_function<std::string>(
         "--passes",
         [&opts](const std::string& list) {
           std::stringstream ss(list);
           for (std::string name; std::getline(ss, name, ',');) opts.passes.push_back(name);
         },
         "Comma-separated, applied in order, e.g. cleanup,unroll,cse,mad,licm,align (also ftz)")
      ->required();
  opt->add_flag("--contract", opts.contract,
                "Allow float mul+add -> fma (a semantic change, recorded in the header)");
  opt->add_option("-o,--out", opts.out, "Write here instead of stdout");

  auto* diff = app.add_subcommand(
      "diff", "Normalized diff and stats table; exit 1 if different. Two .sass files: their "
              "instruction counts by class and opcode side by side, exit 1 if any differs");
  diff->add_option("a", opts.diff_a, "First PTX (or .sass) file")->required();
  diff->add_option("b", opts.diff_b, "Second PTX (or .sass) file")->required();
}

namespace {
void emit(const std::string& text, const std::string& out_path) {
  if (out_path.empty()) {
    std::cout << text;
    return;
  }
  std::ofstream out(out_path);
  out << text;
  out.close();
  if (!out) throw UsageError(out_path + ": cannot write");
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
  if (app.got_subcommand("stats")) {
    nlohmann::json all = nlohmann::json::object();
    for (const auto& f : opts.files) {
      const ptx::Stats s = ptx::compute_stats(load(f));
      if (opts.json) all[f] = ptx::to_json(s);
      else std::cout << "== " << f << "\n" << ptx::to_table(s) << "\n";
    }
    for (const auto& f : opts.sass) {
      const ptx::SassStats s = ptx::parse_sass(read_text(f));
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
    const ptx::SassComparison c = ptx::compare_sass(ptx::parse_sass(read_text(opts.diff_a)),
                                                    ptx::parse_sass(read_text(opts.diff_b)),
                                                    opts.diff_a, opts.diff_b);
    std::cout << c.table;
    return c.equal ? 0 : 1;
  }
  const ptx::DiffResult d = ptx::diff(load(opts.diff_a), load(opts.diff_b), opts.diff_a, opts.diff_b);
  std::cout << d.unified << (d.unified.empty() ? "" : "\n") << d.stats_table;
  return d.equal ? 0 : 1;
}

}  // namespace gpucmp::ptxtool
