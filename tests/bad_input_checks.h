// The bad-input contract shared by the CLI tests: exit code 2 and one line,
// an error naming the problem, and no output left behind.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bench_process.h"

namespace gpucmp::test {

inline std::vector<std::string> nonempty_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// Exit code 2, and the whole output is one line with "error" and `needle`.
inline void expect_one_error_line(const ProcessResult& r, const std::string& needle,
                                  const std::string& command) {
  EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
  const auto lines = nonempty_lines(r.output);
  ASSERT_EQ(lines.size(), 1u) << command << ": want one line, got\n" << r.output;
  EXPECT_NE(lines[0].find("error"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(needle), std::string::npos) << "want '" << needle << "' in\n" << lines[0];
}

// gpucmp-bench with `args` at the quick size and one sample: as above.
inline void expect_quick_usage_error(const std::string& args, const std::string& needle) {
  expect_one_error_line(run_bench(args + " --size quick --samples 1"), needle, args);
}

inline void expect_no_file(const std::string& path) {
  EXPECT_FALSE(std::filesystem::exists(path)) << path << " was left behind";
}

// No file at all in `dir` (no output, no temporary one).
inline void expect_empty_dir(const std::string& dir) {
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir)) left.push_back(e.path());
  EXPECT_TRUE(left.empty()) << dir << " holds " << left.size() << " file(s), e.g. "
                            << (left.empty() ? "" : left.front());
}

// root reads and writes whatever the mode bits say: permission cases skip.
inline bool running_as_root() { return ::geteuid() == 0; }

}  // namespace gpucmp::test
