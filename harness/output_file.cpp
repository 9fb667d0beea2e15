#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "errors.h"

namespace gpucmp {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw UsageError(path + ": cannot write: " + why);
}

// The path the data goes to: `path` with every symbolic link followed (a
// dangling link names the file to create). Throws for a loop of links.
fs::path target_of(const std::string& path) {
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec))) return p;
    const fs::path link = fs::read_symlink(p, ec);
    if (ec) fail(path, ec.message());
    p = link.is_absolute() ? link : p.parent_path() / link;
  }
  fail(path, std::strerror(ELOOP));
}

fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : "."; }

// Writes all of `text` to `fd`; false with errno set when a write fails.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

void write_in_place(const std::string& path, const fs::path& target, const std::string& text) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(path, std::strerror(errno));
  const bool written = write_all(fd, text);
  const int write_errno = errno;
  if (::close(fd) != 0 && written) fail(path, std::strerror(errno));
  if (!written) fail(path, std::strerror(write_errno));
}

// A new file in the target's folder, renamed over the target once complete.
void replace_whole(const std::string& path, const fs::path& target, const std::string& text) {
  std::string temp_name = target.string() + ".partial-XXXXXX";
  std::vector<char> temp(temp_name.begin(), temp_name.end());
  temp.push_back('\0');
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(path, std::strerror(errno));
  // mkstemp's 0600 is no result file's mode: the old file's, else 0666 less the umask.
  struct stat old {};
  mode_t mode = 0;
  if (::stat(target.c_str(), &old) == 0) {
    mode = old.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  bool ok = write_all(fd, text) && ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && std::rename(temp.data(), target.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(temp.data());
    fail(path, std::strerror(err));
  }
}

}  // namespace

void write_output_file(const std::string& path, const std::string& text) {
  if (path.empty()) fail(path, "empty path");
  const fs::path target = target_of(path);
  std::error_code ec;
  const fs::file_status st = fs::status(target, ec);
  if (fs::is_directory(st)) fail(path, "is a directory");
  if (fs::exists(st) && !fs::is_regular_file(st))
    write_in_place(path, target, text);
  else
    replace_whole(path, target, text);
}

std::string why_cannot_write(const std::string& path) {
  if (path.empty()) return "empty path";
  try {
    const fs::path target = target_of(path);
    std::error_code ec;
    const fs::file_status st = fs::status(target, ec);
    if (fs::is_directory(st)) return std::strerror(EISDIR);
    if (fs::is_fifo(st)) return "";  // opened when written: a reader may come later
    if (fs::exists(st) && !fs::is_regular_file(st)) {
      const int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0) return std::strerror(errno);
      ::close(fd);
      return "";
    }
    const std::string probe = (folder_of(target) / ".gpucmp-probe-XXXXXX").string();
    std::vector<char> name(probe.begin(), probe.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) return std::strerror(errno);
    ::close(fd);
    ::unlink(name.data());
    return "";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    return what.substr(what.rfind(": ") + 2);
  }
}

void check_stdout_written() {
  errno = 0;
  std::cout.flush();
  const bool lost = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout;
  if (!lost) return;
  throw UsageError(std::string("stdout: cannot write: ") +
                   (errno != 0 ? std::strerror(errno) : "a write failed"));
}

}  // namespace gpucmp
