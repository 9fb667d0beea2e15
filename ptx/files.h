// File helpers for PTX inputs: whole-file reads and recursive *.ptx listings.
#pragma once
#include <string>
#include <vector>

namespace gpucmp::ptx {

// The file's bytes; throws std::runtime_error "<path>: cannot read: <reason>".
std::string read_text_file(const std::string& path);

// The same without throwing: false with `reason` set ("No such file or directory").
bool try_read_text_file(const std::string& path, std::string& text, std::string& reason);

// Every regular file ending in `extension` under `dir` (recursively), sorted;
// throws std::runtime_error naming `dir` when it cannot be listed.
std::vector<std::string> list_files(const std::string& dir, const std::string& extension = ".ptx");

}  // namespace gpucmp::ptx
