// Stopping a run early without losing it: Ctrl-C (SIGINT), SIGTERM (what
// `timeout` sends) and SIGHUP. The first signal only sets a flag; the harness
// abandons the benchmark in progress at its next sample, runs no further one,
// and Google Benchmark's reporters then finish normally, so that the JSON
// holds every completed benchmark and says it is partial (result_reporter.h).
// A second signal ends the process at once (its default action).
#pragma once
#include <stdexcept>
#include <string>

namespace gpucmp::interrupt {

// Thrown by check() inside a running benchmark; run_guarded() turns it into a
// run that no report shows.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

// Installs the handlers for the scope of a run and restores the previous ones
// after it. A signal whose action was "ignore" when the run started (nohup,
// background jobs) stays ignored.
class Guard {
 public:
  Guard();
  ~Guard();
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
};

// The first signal received (0: none).
int signal_number();
bool requested();
// Throws Interrupted once a signal has arrived.
void check();

// "SIGINT", "SIGTERM", "SIGHUP", or "signal N".
std::string signal_name(int signal);

// The exit status of an interrupted run: 128 + the signal (SIGINT 130,
// SIGTERM 143, SIGHUP 129), as a shell reports a process killed by it.
int exit_code(int signal);

// For tests: acts as if `signal` had arrived (0 clears it).
void simulate(int signal);

}  // namespace gpucmp::interrupt
