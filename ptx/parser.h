// PTX text -> Module. Accepts what nvcc and NVIDIA's OpenCL driver emit (and
// hand-written PTX in the same style); rejects anything else with a ParseError
// that names file, line and column. Never crashes or hangs on arbitrary bytes.
#pragma once
#include <string>
#include <string_view>

#include "ir.h"
#include "parse_error.h"

namespace gpucmp::ptx {

// `filename` is recorded in the Module and used in error messages.
Module parse(std::string_view text, const std::string& filename);

// Reads and parses a file; a file that cannot be read is a ParseError at 0:0
// ("path:0:0: expected a readable PTX file, got 'No such file or directory'").
Module parse_file(const std::string& path);

}  // namespace gpucmp::ptx
