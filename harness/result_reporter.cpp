#include "result_reporter.h"

#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "errors.h"
#include "interrupt.h"
#include "output_file.h"
#include "run_journal.h"
#include "skip_log.h"

namespace gpucmp {

namespace {

using Reporter = benchmark::BenchmarkReporter;
using Run = Reporter::Run;

std::string& file_error() {
  static std::string line;
  return line;
}

std::set<std::string>& completed_names() {
  static std::set<std::string> names;
  return names;
}

// The message of a run that errored or was skipped; nullopt for a measured run.
std::optional<std::string> failure_message(const Run& r) {
#ifdef GPUCMP_HAVE_SKIP_MESSAGE
  if (r.skipped == benchmark::internal::NotSkipped) return std::nullopt;
  return r.skip_message;
#else
  if (!r.error_occurred) return std::nullopt;
  return r.error_message;
#endif
}

bool gives_no_result(const Run& r) {
  const auto message = failure_message(r);
  return message && skip_log().drops(r.run_name.function_name, *message);
}

// The final context keys go into Google Benchmark's (process-wide) custom
// context once, before the first JSON report is rendered.
void add_final_context_once() {
  static bool added = false;
  if (added) return;
  added = true;
  for (const auto& [key, value] : final_context(completed_benchmarks()))
    benchmark::AddCustomContext(key, value);
}

enum class Style { console, json, csv };

class ResultReporter : public Reporter {
 public:
  // `path`: a file reporter's file, written when the run ends; "": the display.
  ResultReporter(std::unique_ptr<Reporter> inner, Style style, std::string path)
      : inner_(std::move(inner)), style_(style), path_(std::move(path)) {
    if (style_ == Style::json && !path_.empty()) journal_ = std::make_unique<RunJournal>(path_);
  }

  bool ReportContext(const Context& context) override {
    // The display: the wrapped reporter writes to this wrapper's streams
    // (stdout). A file: to the report kept in memory until Finalize.
    inner_->SetOutputStream(path_.empty() ? &GetOutputStream() : &file_text_);
    inner_->SetErrorStream(path_.empty() ? &GetErrorStream() : &file_text_);
    name_width_ = int(context.name_field_width);
    if (style_ == Style::console) return inner_->ReportContext(context);
    context_.emplace(context);
    if (journal_) journal_->context(context);
    return true;
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> kept;
    for (const Run& r : runs) {
      if (gives_no_result(r)) {
        if (style_ == Style::console) print_skipped(r);
        continue;
      }
      if (r.run_type == Run::RT_Iteration) completed_names().insert(r.run_name.function_name);
      kept.push_back(r);
    }
    if (kept.empty()) return;
    if (style_ == Style::console) {
      inner_->ReportRuns(kept);
    } else {
      if (journal_) journal_->runs(kept);
      runs_.push_back(std::move(kept));
    }
  }

  void Finalize() override {
    if (style_ == Style::console) {
      inner_->Finalize();
    } else if (context_) {  // else nothing ran
      add_final_context_once();
      if (style_ == Style::csv) give_first_run_every_counter();
      // Rendered whole first, then written at once: a second signal (which
      // ends the process) can hardly catch the output half written.
      std::ostringstream doc;
      inner_->SetOutputStream(&doc);
      inner_->SetErrorStream(path_.empty() ? &GetErrorStream() : &doc);
      inner_->ReportContext(*context_);
      for (const auto& batch : runs_) inner_->ReportRuns(batch);
      inner_->Finalize();
      (path_.empty() ? GetOutputStream() : file_text_) << doc.str() << std::flush;
    }
    if (path_.empty()) return;
    try {
      write_output_file(path_, file_text_.str());
      if (journal_) journal_->remove();  // the report holds every row now
    } catch (const UsageError& e) {
      file_error() = std::string("--benchmark_out=") + e.what();
    }
  }

 private:
  // One line in place of Google Benchmark's "ERROR OCCURRED" (1.7) or
  // "SKIPPED" (1.8+) row, aligned with the result rows.
  void print_skipped(const Run& r) {
    const std::string why = skip_log().reason(r.run_name.function_name);
    if (why.empty() || failure_message(r) == interrupt::Interrupted().what())
      return;  // abandoned by an interrupt: not worth a line
    std::string name = r.benchmark_name();
    if (int(name.size()) < name_width_) name.resize(std::size_t(name_width_), ' ');
    (path_.empty() ? GetOutputStream() : file_text_) << name << " skipped: " << why << "\n";
  }

  std::unique_ptr<Reporter> inner_;
  Style style_;
  std::string path_;                     // a file reporter's file
  std::unique_ptr<RunJournal> journal_;  // JSON to a file: each finished row on disk at once
  std::ostringstream file_text_;         // a file reporter's report, written by Finalize
  int name_width_ = 0;
  // Google Benchmark's CSV reporter takes its columns from the first run and
  // aborts on a later run with a counter it has not seen (CUDA rows have no
  // build_ms, OpenCL rows do): the first run gets every counter of the run,
  // NaN where it has none, so the header holds them all.
  void give_first_run_every_counter() {
    if (runs_.empty()) return;
    Run& first = runs_.front().front();
    for (const auto& batch : runs_)
      for (const Run& r : batch)
        for (const auto& [name, counter] : r.counters)
          if (!first.counters.count(name))
            first.counters[name] = benchmark::Counter(std::numeric_limits<double>::quiet_NaN());
  }

  std::optional<Context> context_;      // JSON, CSV: kept for Finalize
  std::vector<std::vector<Run>> runs_;  // JSON, CSV: the kept runs, in order
};

Style style_of(const Reporter* r) {
  if (dynamic_cast<const benchmark::JSONReporter*>(r)) return Style::json;
  if (dynamic_cast<const benchmark::ConsoleReporter*>(r)) return Style::console;
  return Style::csv;  // the only other reporter Google Benchmark has
}

std::unique_ptr<Reporter> wrap(std::unique_ptr<Reporter> inner, std::string path = "") {
  const Style style = style_of(inner.get());
  return std::make_unique<ResultReporter>(std::move(inner), style, std::move(path));
}

}  // namespace

int completed_benchmarks() { return int(completed_names().size()); }

ContextList final_context(int completed) {
  const SkipLog& log = skip_log();
  ContextList ctx = {
      {"gpucmp.skipped", log.summary()},
      {"gpucmp.skipped_count", std::to_string(log.skipped_count())},
      {"gpucmp.skipped_benchmarks", log.names()},
  };
  if (const int sig = interrupt::signal_number())
    ctx.emplace_back("gpucmp.partial", "interrupted by " + interrupt::signal_name(sig) + " after " +
                                           std::to_string(completed) +
                                           (completed == 1 ? " benchmark" : " benchmarks") +
                                           "; the rest did not run");
  return ctx;
}

std::unique_ptr<Reporter> make_display_reporter() {
  return wrap(std::unique_ptr<Reporter>(benchmark::CreateDefaultDisplayReporter()));
}

std::unique_ptr<Reporter> make_file_reporter(const std::string& format, const std::string& path) {
  if (format == "console")  // as Google Benchmark's own file reporter: no colour, no table
    return wrap(std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None),
                path);
  if (format == "csv") {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return wrap(std::unique_ptr<Reporter>(new benchmark::CSVReporter), path);
#pragma GCC diagnostic pop
  }
  return wrap(std::make_unique<benchmark::JSONReporter>(), path);
}

std::string file_report_error() { return file_error(); }

}  // namespace gpucmp
