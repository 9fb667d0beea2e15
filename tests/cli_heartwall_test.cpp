// heartwall runs validated against the CPU reference: both state layouts
// through OpenCL on the default device (PoCL without a GPU) over a few
// frames; with a CUDA device, CUDA's rows and OpenCL's over 12 frames (the
// template update at frame 10 included), paired. A row that did not validate
// fails the run (exit 1, a FAILED line). --heartwall-write-rodinia writes
// Rodinia's input files and the reference's track, needing no device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bench_process.h"

namespace gpucmp::test {
namespace {

void expect_rows(const ProcessResult& r, const std::string& api, int frames) {
  for (const char* layout : {"aos", "soa"}) {
    const std::string row =
        "\"heartwall/" + api + "/base/frames:" + std::to_string(frames) + "/layout:" + layout + "/";
    EXPECT_NE(r.output.find(row), std::string::npos) << row << " missing in\n" << r.output;
  }
  EXPECT_EQ(r.output.find("FAILED"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("aosoa"), std::string::npos) << r.output;
}

TEST(HeartWall, BothLayoutsValidateOnOpenCL) {
  const ProcessResult r = run_bench(
      "--heartwall-frames 3 --samples 1 --startup off --progress off "
      "--benchmark_filter=^heartwall/opencl/ --benchmark_format=json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  expect_rows(r, "opencl", 3);
}

TEST(HeartWall, GpuBothApisValidateThroughAnUpdate) {
  if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device";
  const ProcessResult r = run_bench(
      "--heartwall-frames 12 --samples 2 --startup off --progress off "
      "--benchmark_filter=^heartwall/ --benchmark_format=json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  expect_rows(r, "cuda", 12);
  expect_rows(r, "opencl", 12);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::uint32_t u32_at(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i)
    v |= std::uint32_t(static_cast<unsigned char>(bytes.at(at + i))) << (8 * i);
  return v;
}

// The line after the first `marker` line.
std::string line_after(const std::string& text, const std::string& marker) {
  std::istringstream in(text.substr(text.find(marker)));
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  return line;
}

// No device: OpenCL finds no platform, CUDA none without a GPU. The video holds
// the longest row's frames; the reference's frame 0 is input.txt's points.
TEST(HeartWall, WritesRodiniasFilesWithoutADevice) {
  const std::string dir = temp_dir("heartwall_rodinia");
  const ProcessResult r = run_bench(
      "--heartwall-write-rodinia " + dir + " --heartwall-frames 3,5,2 --benchmark_format=json",
      "OCL_ICD_VENDORS=/nonexistent CUDA_VISIBLE_DEVICES=");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("heartwall: wrote " + dir + "/test.avi (5 frames, seed 1)"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("\"benchmarks\""), std::string::npos) << r.output;  // nothing ran

  const std::string avi = read_file(dir + "/test.avi");
  ASSERT_GT(avi.size(), std::size_t(5) * 609 * 590);
  EXPECT_EQ(avi.substr(0, 4), "RIFF");
  EXPECT_EQ(u32_at(avi, 4), avi.size() - 8);
  EXPECT_EQ(avi.substr(8, 4), "AVI ");
  EXPECT_EQ(avi.substr(24, 4), "avih");
  EXPECT_EQ(u32_at(avi, 48), 5U);    // dwTotalFrames
  EXPECT_EQ(u32_at(avi, 64), 609U);  // dwWidth
  EXPECT_EQ(u32_at(avi, 68), 590U);  // dwHeight

  const std::string input = read_file(dir + "/input.txt");
  EXPECT_EQ(input.substr(0, 20), "25 40 10 0.87\n20 31\n");
  std::istringstream lines(input);
  std::string line, endo_rows;
  std::getline(lines, line);
  std::getline(lines, line);
  std::getline(lines, endo_rows);

  const std::string ref = read_file(dir + "/reference.txt");
  EXPECT_EQ(ref.rfind("Total AVI Frames: 5\nFrames Processed: 5\nendoPoints: 20\nepiPoints: 31\n"
                      "---Frame 0---\n--endo--\n",
                      0),
            0U)
      << ref.substr(0, 200);
  EXPECT_NE(ref.find("---Frame 4---"), std::string::npos);
  EXPECT_EQ(ref.find("---Frame 5---"), std::string::npos);
  std::string frame0 = line_after(ref, "--endo--");
  std::replace(frame0.begin(), frame0.end(), '\t', ' ');
  EXPECT_EQ(frame0, endo_rows + " ");  // every value followed by a tab, as Rodinia's
}

}  // namespace
}  // namespace gpucmp::test
