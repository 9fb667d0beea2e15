#include "interrupt.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace gpucmp::interrupt {

namespace {

// Written by the handler, which may run on any thread (drivers start their
// own): only a lock-free atomic is safe there.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kCount = int(sizeof kSignals / sizeof kSignals[0]);

void say(const char* text) {
  // write(2) is async-signal-safe; iostreams and spdlog are not.
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void on_signal(int sig) {
  int none = 0;
  if (!g_signal.compare_exchange_strong(none, sig)) {
    // The second signal: the user does not want to wait. Die of it, so that
    // the parent sees the usual status of a killed process.
    ::signal(sig, SIG_DFL);
    ::raise(sig);  // delivered when this handler returns
    return;
  }
  say(sig == SIGINT    ? "\ngpucmp-bench: SIGINT: "
      : sig == SIGTERM ? "\ngpucmp-bench: SIGTERM: "
                       : "\ngpucmp-bench: SIGHUP: ");
  say("stopping; the report keeps the benchmarks already finished "
      "(a second signal quits at once, without a report)\n");
}

struct Saved {
  struct sigaction action[kCount];
  bool installed[kCount] = {};
};
Saved& saved() {
  static Saved s;
  return s;
}

}  // namespace

Guard::Guard() {
  Saved& s = saved();
  for (int i = 0; i < kCount; ++i) {
    struct sigaction old {};
    if (::sigaction(kSignals[i], nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction act {};
    act.sa_handler = on_signal;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_RESTART;  // drivers' blocking calls go on; the flag is read between samples
    if (::sigaction(kSignals[i], &act, &s.action[i]) == 0) s.installed[i] = true;
  }
}

Guard::~Guard() {
  Saved& s = saved();
  for (int i = 0; i < kCount; ++i)
    if (s.installed[i]) {
      ::sigaction(kSignals[i], &s.action[i], nullptr);
      s.installed[i] = false;
    }
}

int signal_number() { return g_signal.load(); }
bool requested() { return signal_number() != 0; }

void check() {
  if (requested()) throw Interrupted();
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "signal " + std::to_string(sig);
  }
}

int exit_code(int sig) { return 128 + sig; }

void simulate(int sig) { g_signal.store(sig); }

}  // namespace gpucmp::interrupt
