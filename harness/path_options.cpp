// The path options of gpucmp-bench and gpucmp-ptx (declared in options.h):
// an empty path refused when parsed, input and output files and folders
// checked before anything runs, each refusal one line naming the option.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "errors.h"
#include "options.h"

namespace gpucmp {

namespace fs = std::filesystem;

CLI::Option* add_path_option(CLI::App& app, const std::string& name, std::string& target,
                             const std::string& help) {
  const std::string shown = name.substr(name.rfind(',') + 1);  // "--out" of "-o,--out"
  return add_checked_option(
             app, name,
             [&target, shown](const std::string& path) {
               if (path.empty()) throw UsageError(shown + ": empty path");
               target = path;
             },
             help)
      ->type_name("PATH");
}

namespace {

// Throws "<what> <path>: <why>" unless `why` is empty.
void refuse_unless_empty(const std::string& why, const std::string& path, const std::string& what) {
  if (why.empty()) return;
  if (path.empty()) throw UsageError((what.empty() ? "path" : what) + ": " + why);
  throw UsageError((what.empty() ? path : what + " " + path) + ": " + why);
}

// Why `path` names nothing: "" when something is there.
std::string why_missing(const std::string& path, const fs::file_status& st,
                        const std::error_code& ec) {
  if (path.empty()) return "empty path";
  if (fs::exists(st)) return "";
  return ec && ec != std::errc::no_such_file_or_directory ? ec.message()
                                                          : "no such file or directory";
}

std::string why_not_directory(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (std::string why = why_missing(path, st, ec); !why.empty()) return why;
  return fs::is_directory(st) ? "" : "not a directory";
}

}  // namespace

void check_directory(const std::string& path, const std::string& what) {
  refuse_unless_empty(why_not_directory(path), path, what);
}

void check_output_directory(const std::string& path, const std::string& what) {
  std::string why = why_not_directory(path);
  if (why.empty() && ::access(path.c_str(), W_OK) != 0)
    why = std::string("cannot write into it: ") + std::strerror(errno);
  refuse_unless_empty(why, path, what);
}

std::string why_not_input_file(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (std::string why = why_missing(path, st, ec); !why.empty()) return why;
  if (fs::is_directory(st)) return "is a directory";
  if (!fs::is_regular_file(st)) return "not a regular file";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::strerror(errno);
  std::fclose(f);
  return "";
}

std::string why_not_output_file(const std::string& path) {
  if (path.empty()) return "empty path";
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) return "is a directory";
  if (fs::exists(st) && !fs::is_regular_file(st)) return "";  // a device: written in place
  const fs::path parent = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : ".";
  if (!fs::is_directory(parent, ec)) return "no such directory " + parent.string();
  // A regular file is written beside and renamed over: the folder must take a new file.
  if (::access(parent.c_str(), W_OK) != 0)
    return "cannot write into " + parent.string() + ": " + std::strerror(errno);
  return "";
}

void check_input_file(const std::string& path, const std::string& what) {
  refuse_unless_empty(why_not_input_file(path), path, what);
}

void check_output_file(const std::string& path, const std::string& what) {
  refuse_unless_empty(why_not_output_file(path), path, what);
}

}  // namespace gpucmp
