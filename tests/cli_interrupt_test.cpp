// A run stopped by a signal (SIGTERM: what `timeout` sends; SIGINT: Ctrl-C)
// keeps what it measured: the --benchmark_out JSON is valid, holds every
// benchmark completed before the signal, abandons the one in progress within
// a sample, and says in its context that it is partial; the exit code is
// 128 + the signal (143, 130). On the default OpenCL device (PoCL here).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_process.h"

namespace gpucmp::test {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// gpucmp-bench as a child process of this test (its pid is needed to signal it).
class Child {
 public:
  Child(const std::vector<std::string>& args, const std::string& dir)
      : out_(dir + "/stdout.txt"), err_(dir + "/stderr.txt") {
    pid_ = ::fork();
    if (pid_ == 0) {
      const int out = ::open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, STDOUT_FILENO);
      ::dup2(err, STDERR_FILENO);
      std::vector<char*> argv{const_cast<char*>(GPUCMP_BENCH_PATH)};
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(GPUCMP_BENCH_PATH, argv.data());
      ::_exit(127);
    }
  }
  ~Child() {
    if (pid_ > 0 && !reaped_) {  // a failed test: leave no process behind
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool started() const { return pid_ > 0; }
  std::string err() const { return read_file(err_); }
  std::string output() const { return "stderr:\n" + err() + "\nstdout:\n" + read_file(out_); }

  // Waits until stderr holds `text`; false after `limit`.
  bool wait_for(const std::string& text, std::chrono::seconds limit) const {
    const auto end = Clock::now() + limit;
    while (Clock::now() < end) {
      if (err().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  void signal(int sig) const { ::kill(pid_, sig); }

  // The exit status (WIFEXITED); -1 when it did not exit within `limit` (it
  // is then killed) or died of a signal.
  int wait_exit(std::chrono::seconds limit) {
    const auto end = Clock::now() + limit;
    int status = 0;
    while (Clock::now() < end) {
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }

 private:
  std::string out_, err_;
  pid_t pid_ = -1;
  bool reaped_ = false;
};

// Two matrixMul benchmarks of 300 samples, each sample a batch of launches
// lasting at least 5 ms: n=64 takes about 1.5 s, n=512 at least as long on a
// GPU and far longer on PoCL (one ~0.1 s launch per sample). The signal
// comes as soon as the second has started, so the first is complete and the
// second must be abandoned, whatever the device's speed.
void expect_partial_report(int sig, const std::string& sig_name, int exit_code) {
  const std::string dir = temp_dir("interrupt-" + sig_name);
  const std::string out = dir + "/out.json";
  Child bench({"--size", "quick", "--mm-n", "64,512", "--samples", "300", "--batch-ms", "5",
               "--startup", "off", "--benchmark_filter=^matrixMul/opencl/tile16/",
               "--benchmark_out=" + out, "--benchmark_out_format=json"},
              dir);
  ASSERT_TRUE(bench.started());
  // The progress line of the second benchmark: the first one is complete.
  ASSERT_TRUE(bench.wait_for("[2/2] matrixMul/opencl/tile16/n:512", std::chrono::seconds(15)))
      << bench.output();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // into its samples
  const auto signalled = Clock::now();
  bench.signal(sig);
  EXPECT_EQ(bench.wait_exit(std::chrono::seconds(15)), exit_code) << bench.output();
  EXPECT_LT(Clock::now() - signalled, std::chrono::seconds(10))
      << "the benchmark in progress was not abandoned\n"
      << bench.output();
  EXPECT_NE(bench.err().find(sig_name + ": stopping"), std::string::npos) << bench.output();

  const json report = json::parse(read_file(out), nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(report.is_object()) << "not valid JSON:\n" << read_file(out);
  ASSERT_TRUE(report.contains("benchmarks") && report["benchmarks"].is_array());
  const json& rows = report["benchmarks"];
  ASSERT_EQ(rows.size(), 1u) << rows.dump(1);
  EXPECT_EQ(rows[0].value("name", ""), "matrixMul/opencl/tile16/n:64/iterations:1/manual_time");
  EXPECT_FALSE(rows[0].value("error_occurred", false)) << rows[0].dump(1);
  EXPECT_EQ(rows[0].value("samples", 0.0), 300.0);
  const std::string partial = report["context"].value("gpucmp.partial", "");
  EXPECT_EQ(partial, "interrupted by " + sig_name + " after 1 benchmark; the rest did not run");
}

TEST(Interrupt, SigtermKeepsFinishedBenchmarksMarkedPartial) {
  expect_partial_report(SIGTERM, "SIGTERM", 143);
}

TEST(Interrupt, SigintKeepsFinishedBenchmarksMarkedPartial) {
  expect_partial_report(SIGINT, "SIGINT", 130);
}

// A signal within the repetitions of one benchmark: the finished repetition
// stays in a valid report, exit 143. (Whether the later repetitions are
// abandoned before or after their iteration starts depends on timing here;
// unit_interrupt_repetitions_test.cpp pins the "before" case.)
TEST(Interrupt, SigtermDuringRepetitionsKeepsTheFinishedOnes) {
  const std::string dir = temp_dir("interrupt-repetitions");
  const std::string out = dir + "/out.json";
  Child bench(
      {"--size", "quick", "--mm-n", "64", "--samples", "1000", "--batch-ms", "5", "--startup",
       "off", "--benchmark_repetitions=3", "--benchmark_filter=^matrixMul/opencl/tile16/",
       "--benchmark_out=" + out, "--benchmark_out_format=json"},
      dir);
  ASSERT_TRUE(bench.started());
  // The progress line of the second repetition: the first is complete; the
  // second is abandoned within a sample, the third before it starts. 1000
  // samples make a repetition last seconds: with 300 a loaded machine once
  // finished all three before the signal, and the aggregates' NaN (the cv of
  // an all-zero counter) made the report unreadable here.
  ASSERT_TRUE(bench.wait_for("[2/3] matrixMul/opencl/tile16/n:64", std::chrono::seconds(120)))
      << bench.output();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // into its samples
  bench.signal(SIGTERM);
  EXPECT_EQ(bench.wait_exit(std::chrono::seconds(15)), 143) << bench.output();
  const json report = json::parse(read_file(out), nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(report.is_object()) << "not valid JSON:\n" << read_file(out) << bench.output();
  const json& rows = report["benchmarks"];
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].value("repetition_index", -1), 0) << rows.dump(1);
  EXPECT_EQ(rows[0].value("samples", 0.0), 1000.0) << rows.dump(1);
}

// A run killed outright (SIGKILL, or a second signal) writes no report: the
// --benchmark_out file keeps the report it held before, untouched while the
// run went on, and the rows it finished are in the journal beside it.
TEST(Interrupt, KilledRunLeavesTheOldReport) {
  const std::string dir = temp_dir("interrupt-kill");
  const std::string out = dir + "/out.json";
  const std::string old = "{\"context\": {}, \"benchmarks\": []}\n";
  std::ofstream(out) << old;
  Child bench(
      {"--size", "quick", "--mm-n", "64,512", "--samples", "300", "--batch-ms", "5", "--startup",
       "off", "--benchmark_filter=^matrixMul/opencl/tile16/", "--benchmark_out=" + out},
      dir);
  ASSERT_TRUE(bench.started());
  ASSERT_TRUE(bench.wait_for("[2/2] matrixMul/opencl/tile16/n:512", std::chrono::seconds(15)))
      << bench.output();
  EXPECT_EQ(read_file(out), old) << "changed while the run went on";
  bench.signal(SIGKILL);
  bench.wait_exit(std::chrono::seconds(15));
  EXPECT_EQ(read_file(out), old);

  // The finished benchmark is on disk in the journal beside the report: its
  // context first, then its row, one JSON object a line.
  std::vector<json> lines;
  std::istringstream journal(read_file(out + ".journal.jsonl"));
  for (std::string line; std::getline(journal, line);)
    lines.push_back(json::parse(line, nullptr, /*allow_exceptions=*/false));
  ASSERT_EQ(lines.size(), 2u) << read_file(out + ".journal.jsonl");
  EXPECT_TRUE(lines[0].contains("context")) << lines[0].dump(1);
  EXPECT_EQ(lines[1].value("name", ""), "matrixMul/opencl/tile16/n:64/iterations:1/manual_time");
  EXPECT_EQ(lines[1].value("samples", 0.0), 300.0);

  // A new run to that report would start the journal afresh: refused.
  const ProcessResult again = run_bench(
      "--size quick --mm-n 64 --samples 3 --startup off "
      "--benchmark_filter=^matrixMul/opencl/tile16/ --benchmark_out=" +
      out);
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_NE(again.output.find("journal.jsonl holds the rows of an earlier run"), std::string::npos)
      << again.output;
  EXPECT_EQ(read_file(out), old);
}

// A CSV report of a stopped run says so in the context lines above its table.
TEST(Interrupt, CsvReportOfAStoppedRunIsMarkedPartial) {
  const std::string dir = temp_dir("interrupt-csv");
  const std::string out = dir + "/out.csv";
  Child bench({"--size", "quick", "--mm-n", "64,512", "--samples", "300", "--batch-ms", "5",
               "--startup", "off", "--benchmark_filter=^matrixMul/opencl/tile16/",
               "--benchmark_out=" + out, "--benchmark_out_format=csv"},
              dir);
  ASSERT_TRUE(bench.started());
  ASSERT_TRUE(bench.wait_for("[2/2] matrixMul/opencl/tile16/n:512", std::chrono::seconds(15)))
      << bench.output();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // into its samples
  bench.signal(SIGTERM);
  EXPECT_EQ(bench.wait_exit(std::chrono::seconds(15)), 143) << bench.output();
  const std::string csv = read_file(out);
  EXPECT_NE(csv.find("gpucmp.partial: interrupted by SIGTERM after 1 benchmark"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find("matrixMul/opencl/tile16/n:64"), std::string::npos) << csv;
}

// A run that ends by itself has no partial marker.
TEST(Interrupt, CompleteRunIsNotMarkedPartial) {
  const std::string out = temp_dir("interrupt-none") + "/out.json";
  const ProcessResult r = run_bench(
      "--size quick --mm-n 64 --samples 3 --startup off "
      "--benchmark_filter=^matrixMul/opencl/tile16/ --benchmark_out=" +
      out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const json report = json::parse(read_file(out), nullptr, false);
  ASSERT_TRUE(report.is_object()) << r.output;
  EXPECT_EQ(report["benchmarks"].size(), 1u);
  EXPECT_FALSE(report["context"].contains("gpucmp.partial")) << report["context"].dump(1);
  // The report holds every row: its journal is gone.
  EXPECT_FALSE(std::ifstream(out + ".journal.jsonl").good());
}

}  // namespace
}  // namespace gpucmp::test
