// gpucmp-ptx normalize | stats | opt | passes | diff, on the PTX library (ptx/).
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace gpucmp::ptxtool {

struct AnalysisOptions {
  std::vector<std::string> files;  // normalize: 1, stats: 1+, diff: 2
  std::string out;                 // normalize -o
  std::vector<std::string> sass;   // stats --sass
  bool json = false;
  std::string diff_a, diff_b;
  std::vector<std::string> passes;  // opt --passes
  bool contract = false;            // opt --contract: float mul+add may become fma
};

void add_analysis_commands(CLI::App& app, AnalysisOptions& opts);
// Runs whichever of normalize / stats / opt / passes / diff was given; returns the exit code.
int run_analysis(const CLI::App& app, const AnalysisOptions& opts);

}  // namespace gpucmp::ptxtool
