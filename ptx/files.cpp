#include "files.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace gpucmp::ptx {

bool try_read_text_file(const std::string& path, std::string& text, std::string& reason) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) {
    reason = "is a directory";
    return false;
  }
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    reason = "not a regular file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    reason = std::strerror(errno);
    return false;
  }
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception& e) {
    reason = e.what();
    return false;
  }
  if (in.bad()) {
    reason = "I/O error";
    return false;
  }
  return true;
}

std::string read_text_file(const std::string& path) {
  std::string text, reason;
  if (!try_read_text_file(path, text, reason))
    throw std::runtime_error(path + ": cannot read: " + reason);
  return text;
}

std::string why_not_text(std::string_view text) {
  if (text.empty()) return "empty file";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    // (strchr finds every string's terminating NUL: 0 is tested apart.)
    if (c == 0 || c == 0x7f || (c < 0x20 && !std::strchr("\t\n\v\f\r", c))) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "binary data (byte 0x%02x at offset %zu)", c, i);
      return buf;
    }
  }
  return "";
}

std::vector<std::string> list_files(const std::string& dir, const std::string& extension) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) throw std::runtime_error(dir + ": cannot list: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) throw std::runtime_error(dir + ": cannot list: " + ec.message());
    if (it->is_regular_file(ec) && it->path().extension() == extension)
      out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gpucmp::ptx
