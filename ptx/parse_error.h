// The one error the parser throws: "file:line:column: expected <what>, got '<token>'".
#pragma once
#include <stdexcept>
#include <string>

namespace gpucmp::ptx {

struct ParseError : std::runtime_error {
  ParseError(const std::string& file, int line, int column, const std::string& expected,
             const std::string& got);

  std::string file;
  int line;
  int column;
};

}  // namespace gpucmp::ptx
