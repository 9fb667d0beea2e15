// Plain-text tables with aligned columns: first column left-aligned, the others
// right-aligned (they hold numbers).
#pragma once
#include <string>
#include <vector>

namespace gpucmp::ptx {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  void add_row(std::vector<std::string> cells);
  std::string str(const std::string& indent = "  ") const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// "+3", "-2", "0".
std::string signed_delta(long long delta);

}  // namespace gpucmp::ptx
