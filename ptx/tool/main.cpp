// gpucmp-ptx: what each compiler emitted, and how it differs.
//   dump       the PTX (and SASS) of every kernel from either compiler
//   normalize  canonical PTX: registers and labels renumbered, debug dropped
//   stats      per-kernel instruction mix, in and out of loops (--json)
//   opt        IR passes on a PTX file (those of ptx/pass_registry.h)
//   passes     the registered passes: name, scope, description
//   diff       normalized unified diff + stats table; exit 0 equal, 1 different
//   cache-sass the cubins (and SASS) a driver JIT left in a compute-cache folder
#include <CLI/CLI.hpp>
#include <iostream>

#include "analysis_commands.h"
#include "cache_command.h"
#include "dump_command.h"
#include "errors.h"
#include "output_file.h"

namespace {

// The whole tool; main() turns what escapes it into an exit code.
int ptx_main(int argc, char** argv) {
  using namespace gpucmp;
  CLI::App app{"gpucmp-ptx: dump, normalize, count and diff the PTX of both compilers"};
  app.name("gpucmp-ptx");
  app.require_subcommand(1);
  ptxtool::DumpOptions dump;
  ptxtool::AnalysisOptions analysis;
  ptxtool::add_dump_command(app, dump);
  ptxtool::add_analysis_commands(app, analysis);
  ptxtool::CacheOptions cache;
  ptxtool::add_cache_command(app, cache);
  // CLI11 says "A subcommand is required" of a command it does not know.
  if (argc > 1 && argv[1][0] != '-') {
    const CLI::App& top = app;
    std::string known;
    bool found = false;
    for (const CLI::App* sub : top.get_subcommands([](const CLI::App*) { return true; })) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      found = found || sub->get_name() == argv[1];
    }
    if (!found) {
      std::cerr << "gpucmp-ptx: error: " << argv[1] << ": not a command (one of " << known << ")\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "gpucmp-ptx: error: " << e.what() << "\n";
    return kExitUsage;
  }
  try {
    int code = kExitOk;
    if (app.got_subcommand("dump"))
      code = ptxtool::run_dump(dump);
    else if (app.got_subcommand("cache-sass"))
      code = ptxtool::run_cache(cache);
    else
      code = ptxtool::run_analysis(app, analysis);
    check_stdout_written();  // output lost on the way (stdout is /dev/full): exit code 2
    return code;
  } catch (const UsageError& e) {
    std::cerr << "gpucmp-ptx: error: " << e.what() << "\n";
    if (const auto* b = dynamic_cast<const BuildError*>(&e))
      std::cerr << "--- build log ---\n" << b->log << "\n--- end of build log ---\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "gpucmp-ptx: error: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace

// What ptx_main does not catch itself (building the command line, printing the
// help) ends the tool as its other errors do: one line on stderr, exit code 2.
int main(int argc, char** argv) {
  try {
    return ptx_main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gpucmp-ptx: error: " << e.what() << "\n";
    return gpucmp::kExitUsage;
  } catch (...) {
    std::cerr << "gpucmp-ptx: error: unknown exception\n";
    return gpucmp::kExitUsage;
  }
}
