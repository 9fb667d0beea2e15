#include "parse_error.h"

namespace gpucmp::ptx {

ParseError::ParseError(const std::string& file_, int line_, int column_,
                       const std::string& expected, const std::string& got)
    : std::runtime_error(file_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) +
                         ": expected " + expected + ", got '" + got + "'"),
      file(file_),
      line(line_),
      column(column_) {}

}  // namespace gpucmp::ptx
