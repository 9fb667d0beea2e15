// Test helper shared by the PTX tests: runs ptxas (the one CMake found at
// configure time, passed in as GPUCMP_PTXAS, empty when none was found) on PTX
// text, to check that what the library prints still assembles.
//
//   ptxas_found()                        whether there is a ptxas to run
//   GPUCMP_SKIP_WITHOUT_PTXAS()          in a test body or SetUp(): skip when there is none
//   run_ptxas(text, arch, output)        its exit status (std::system's), its messages in `output`
//   ptxas_assembles(text, arch, output)  run_ptxas(...) == 0, or true when there is no ptxas
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "ptx/files.h"

#ifndef GPUCMP_PTXAS
#error "GPUCMP_PTXAS (the path of ptxas, or empty) must be defined by tests/CMakeLists.txt"
#endif

namespace gpucmp::ptx {

inline bool ptxas_found() { return !std::string(GPUCMP_PTXAS).empty(); }

// Runs ptxas on `text` for `arch` (e.g. "sm_90"), output discarded; returns its
// exit status and its messages. Only call it when ptxas_found(). The scratch
// files are named after the current test and a call count (ctest runs tests in
// parallel processes) and removed afterwards.
inline int run_ptxas(const std::string& text, const std::string& arch, std::string& output) {
  static int calls = 0;
  std::string test = "none";
  if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info())
    test = std::string(info->test_suite_name()) + "_" + info->name();
  for (char& c : test)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  const std::string stem =
      ::testing::TempDir() + "gpucmp_ptxas_" + test + "_" + std::to_string(++calls);
  const std::string input = stem + ".ptx", log = stem + ".log";
  std::ofstream(input) << text;
  const std::string command = std::string("\"") + GPUCMP_PTXAS + "\" -arch=" + arch + " \"" +
                              input + "\" -o /dev/null > \"" + log + "\" 2>&1";
  const int status = std::system(command.c_str());
  output = read_text_file(log);
  std::remove(input.c_str());
  std::remove(log.c_str());
  return status;
}

// Whether ptxas assembles `text` for `arch`, its messages in `output`; true
// (nothing checked, `output` untouched) when ptxas was not found.
inline bool ptxas_assembles(const std::string& text, const std::string& arch, std::string& output) {
  return !ptxas_found() || run_ptxas(text, arch, output) == 0;
}

}  // namespace gpucmp::ptx

// In a test body or SetUp(): skip the test when ptxas was not found.
#define GPUCMP_SKIP_WITHOUT_PTXAS()                                                         \
  do {                                                                                      \
    if (!::gpucmp::ptx::ptxas_found()) GTEST_SKIP() << "ptxas not found at configure time"; \
  } while (false)
