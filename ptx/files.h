// File helpers for PTX inputs: whole-file reads and recursive *.ptx listings,
// the check that bytes are text at all, and outputs written whole or not at all.
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

// Writes `text` to `path` through a temporary file beside it, renamed over
// `path` once complete: a failed write leaves no partial file. Throws
// std::runtime_error "<path>: cannot write: <reason>".
void write_text_file_atomically(const std::string& path, const std::string& text);

// Every regular file ending in `extension` under `dir` (recursively), sorted;
// throws std::runtime_error naming `dir` when it cannot be listed.
std::vector<std::string> list_files(const std::string& dir, const std::string& extension = ".ptx");

}  // namespace gpucmp::ptx
