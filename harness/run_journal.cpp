#include "run_journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gpucmp {

namespace {

using Reporter = benchmark::BenchmarkReporter;

// The report Google Benchmark's JSON reporter renders for `runs` alone,
// parsed: {"context": ..., "benchmarks": [...]}.
nlohmann::json rendered(const Reporter::Context& context, const std::vector<Reporter::Run>& runs) {
  std::ostringstream text;
  benchmark::JSONReporter json;
  json.SetOutputStream(&text);
  json.SetErrorStream(&text);
  json.ReportContext(context);
  if (!runs.empty()) json.ReportRuns(runs);
  json.Finalize();
  return nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
}

// A report path that is a regular file, or none yet (a symbolic link is
// followed): the ones a journal goes beside.
bool is_file_or_new(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno == ENOENT;
  return S_ISREG(st.st_mode);
}

}  // namespace

std::string RunJournal::path_for(const std::string& report_path) {
  return report_path + ".journal.jsonl";
}

RunJournal::RunJournal(const std::string& report_path)
    : path_(is_file_or_new(report_path) ? path_for(report_path) : "") {}

RunJournal::~RunJournal() {
  if (fd_ >= 0) ::close(fd_);
}

void RunJournal::fail(const std::string& why) {
  std::cerr << "gpucmp-bench: warning: " << path_ << ": " << why
            << "; the run goes on without a journal (its report is written at the end)\n";
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  path_.clear();
}

void RunJournal::context(const Reporter::Context& context) {
  if (path_.empty()) return;
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return fail(std::string("cannot open: ") + std::strerror(errno));
  saved_context_ = std::make_unique<Reporter::Context>(context);
  const nlohmann::json doc = rendered(context, {});
  if (doc.is_discarded() || !doc.contains("context"))
    return fail("Google Benchmark's context did not render as JSON");
  append(nlohmann::json{{"context", doc["context"]}}.dump());
}

void RunJournal::runs(const std::vector<Reporter::Run>& runs) {
  if (fd_ < 0 || runs.empty()) return;
  const nlohmann::json doc = rendered(*saved_context_, runs);
  if (doc.is_discarded() || !doc.contains("benchmarks"))
    return fail("a run did not render as JSON");
  for (const auto& row : doc["benchmarks"]) {
    append(row.dump());
    if (fd_ < 0) return;
  }
  if (::fsync(fd_) != 0) fail(std::string("cannot sync: ") + std::strerror(errno));
}

void RunJournal::append(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail(std::string("cannot write: ") + std::strerror(errno));
    done += std::size_t(n);
  }
}

void RunJournal::remove() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!path_.empty()) ::unlink(path_.c_str());
}

}  // namespace gpucmp
