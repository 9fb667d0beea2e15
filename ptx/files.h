// File helpers for PTX inputs: whole-file reads and recursive *.ptx listings,
// and the check that bytes are text at all. (gpucmp-ptx writes its outputs
// with harness/output_file.h.)
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace gpucmp::ptx {

// The file's bytes; throws std::runtime_error "<path>: cannot read: <reason>".
std::string read_text_file(const std::string& path);

// The same without throwing: false with `reason` set ("No such file or
// directory", "is a directory", "not a regular file": a FIFO or device would
// block or never end).
bool try_read_text_file(const std::string& path, std::string& text, std::string& reason);

// Why `text` cannot be the contents of a PTX or SASS file: "empty file", or
// "binary data (byte 0x00 at offset 12)" for a control character other than
// tab, newline, vertical tab, form feed and carriage return; "" when it can.
std::string why_not_text(std::string_view text);

// Every regular file ending in `extension` under `dir` (recursively), sorted;
// throws std::runtime_error naming `dir` when it cannot be listed.
std::vector<std::string> list_files(const std::string& dir, const std::string& extension = ".ptx");

}  // namespace gpucmp::ptx
