// Writing a result to a path the user named without ever losing one:
//  - a regular file (or a new one) is replaced only once the new content is
//    complete: written to a temporary file in the same folder, then renamed
//    over it, so that a failure, a full disk or a kill leaves the old file;
//  - a symbolic link is followed: its target gets these rules, and the link
//    stays a link;
//  - anything else (a device such as /dev/null, a FIFO, a terminal) is
//    written in place: renaming a file over it would replace the device;
//  - a folder is refused.
// A failed open, write or close is a UsageError (exit code 2), one line:
// "<path>: cannot write: <reason>".
#pragma once
#include <string>

namespace gpucmp {

void write_output_file(const std::string& path, const std::string& text);

// Why write_output_file(path, ...) would fail now, "" when it would not:
// tried without writing (a temporary file created in the folder and
// removed; a device opened and closed, a FIFO not opened).
std::string why_cannot_write(const std::string& path);

// What the process wrote to stdout reached it: flushes it and throws
// UsageError "stdout: cannot write: <reason>" when a write failed (stdout is
// /dev/full, a closed pipe, a full disk).
void check_stdout_written();

}  // namespace gpucmp
