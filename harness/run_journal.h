// A journal beside a JSON report, so that a run killed before its report is
// written (SIGKILL, a crash, the machine lost) loses no finished row:
// <report>.journal.jsonl holds on its first line {"context": {...}} and then
// one line per reported run, the object the report would hold, each line
// flushed to disk (fsync) as soon as its benchmark has finished. Once the
// report itself is written whole the journal is removed. scripts/
// journal_report.py (which scripts/suite.py uses) makes a report from it,
// marked as recovered.
// Only a report that is (or will be) a regular file gets a journal: none for
// a device (/dev/null) or anything that is not a file.
#pragma once
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

namespace gpucmp {

class RunJournal {
 public:
  // The journal of the report at `report_path`; opens nothing yet.
  explicit RunJournal(const std::string& report_path);
  ~RunJournal();
  RunJournal(const RunJournal&) = delete;
  RunJournal& operator=(const RunJournal&) = delete;

  // Starts the journal with the run's context (created, or emptied).
  void context(const benchmark::BenchmarkReporter::Context& context);
  // Appends each run (as the JSON report renders it), one line each, on disk.
  void runs(const std::vector<benchmark::BenchmarkReporter::Run>& runs);
  // The report is written: the journal goes.
  void remove();

  const std::string& path() const { return path_; }
  static std::string path_for(const std::string& report_path);

 private:
  void append(const std::string& line);
  void fail(const std::string& why);

  std::string path_;  // "" : no journal for this report
  int fd_ = -1;
  std::unique_ptr<benchmark::BenchmarkReporter::Context> saved_context_;  // for each run's render
};

}  // namespace gpucmp
