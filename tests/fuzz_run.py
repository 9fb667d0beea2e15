"""Running one case of cli_fuzz_test.py (run_case: the program in the case's
folder, a peer at the other end of each FIFO it was given, a time limit) and
judging how it ended (check: exit code 0, 1 or 2, and an exit code 2 in one of
its two forms, docs/usage.md "Exit codes")."""
import os
import re
import signal
import stat
import subprocess
import threading
import time

# ---- running a case ----

class FifoPeer(threading.Thread):
    """The other end of a FIFO: reads what the program writes to it (out) or
    writes a few bytes for it to read (in), as often as the program opens it."""

    def __init__(self, path, writes):
        super().__init__(daemon=True)
        self.path, self.writes = path, writes
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                if self.writes:
                    fd = os.open(self.path, os.O_WRONLY)  # waits for a reader
                    try:
                        os.write(fd, b"not what you want\n" * 4)
                    except OSError:
                        pass
                    os.close(fd)
                else:
                    fd = os.open(self.path, os.O_RDONLY)  # waits for a writer
                    while os.read(fd, 1 << 16):
                        pass
                    os.close(fd)
            except OSError:
                return

    def finish(self):
        self.stop.set()
        flags = (os.O_RDONLY if self.writes else os.O_WRONLY) | os.O_NONBLOCK
        deadline = time.monotonic() + 5
        while self.is_alive() and time.monotonic() < deadline:
            try:  # the other end: the peer's open returns
                os.close(os.open(self.path, flags))
            except OSError:
                pass
            self.join(0.05)


def tree(folder):
    """Every path under `folder`, relative, links not followed."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            found.add(os.path.relpath(os.path.join(dirpath, name), folder))
    return found


def child_env():
    # Google Benchmark's environment variables would change what each case means.
    return {k: v for k, v in os.environ.items() if not k.startswith("BENCHMARK_")}


def spawn(argv, cwd):
    """Popen, waiting out a binary that a build is writing (ETXTBSY and kin)."""
    for attempt in range(60):
        try:
            return subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=child_env(), start_new_session=True)
        except OSError:
            if attempt == 59:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


def run_case(case, timeout):
    """(exit code, negative for a signal; stdout; stderr; seconds; timed out)."""
    peers = []
    joined = "\0".join(case.argv)
    for name, writes in (("fifo-in", True), ("fifo-out", False)):
        if case.path(name) in joined:
            peers.append(FifoPeer(case.path(name), writes))
    for p in peers:
        p.start()
    start = time.monotonic()
    proc = spawn(case.argv, case.dir)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    seconds = time.monotonic() - start
    for p in peers:
        p.finish()
    return (proc.returncode, out.decode("utf-8", errors="replace"),
            err.decode("utf-8", errors="replace"), seconds, timed_out)


def lines_of(text):
    """The lines of `text` as the program wrote them (splitlines would also
    split at the unicode line breaks that a hostile value may hold)."""
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n") if text else []


BUILD_LOG = "--- build log ---"
END_OF_LOG = "--- end of build log ---"
REPORT_LOST = re.compile(r"^gpucmp-bench: error: (--benchmark_out=.*|stdout): cannot write: ")


def without_build_logs(lines):
    """The lines, every build log block (from its header to its end) left out;
    None when a block does not end or does not follow an error line."""
    kept, i = [], 0
    while i < len(lines):
        if lines[i] == BUILD_LOG:
            if not kept or ": error: " not in kept[-1]:
                return None
            try:
                i = lines.index(END_OF_LOG, i) + 1
            except ValueError:
                return None
            continue
        kept.append(lines[i])
        i += 1
    return kept


def exit2_problems(case, err, before, after):
    """What is wrong with an exit code 2 (an empty list when nothing is), and
    whether the benchmarks had run."""
    prefix = f"{case.program}: error: "
    lines = lines_of(err)
    kept = without_build_logs(lines)
    if kept is None:
        return [f"exit 2: a build log that is not one under an error line:\n{err}"], False
    if len(kept) == 1 and kept[0].startswith(prefix):  # before the run
        created = sorted(after - before)
        if created:
            return ["exit 2 before the run, yet it left behind: " + ", ".join(created[:8])], False
        return [], False
    if case.program != "gpucmp-bench":
        return [f"exit 2: stderr is {len(kept)} lines (build logs aside), "
                f"want one '{prefix}...' line"], False
    errors = [line for line in kept if line.startswith(prefix)]
    failed = {line[len("FAILED: "):] for line in kept if line.startswith("FAILED: ")}
    problems = []
    if not errors:
        problems.append(f"exit 2 without a '{prefix}...' line")
    for i, line in enumerate(kept):
        if not line.startswith(prefix):
            continue
        if REPORT_LOST.match(line):
            if i != len(kept) - 1:
                problems.append(f"exit 2: the report's error is not the last line: {line!r}")
            home = os.path.realpath(case.dir)
            for out in case.out_paths:
                real = os.path.realpath(os.path.join(case.dir, out))
                if real.startswith(home + os.sep) and os.path.isfile(real) and \
                        os.path.relpath(real, home) in after - before:
                    problems.append(f"exit 2: the report that could not be written is "
                                    f"there: {out}")
        elif line[len(prefix):] not in failed:
            problems.append("exit 2: more than one line, and this error is neither a "
                            f"benchmark's (no FAILED line for it) nor the report's: {line!r}")
    if len(errors) > 1 + len(failed):
        problems.append(f"exit 2: {len(errors)} error lines for {len(failed)} FAILED lines")
    return problems, True


def check(case, rc, err, timed_out, timeout, before, after):
    """Every problem with one case's ending, and whether it was an exit code 2
    once the benchmarks had run."""
    if timed_out:
        return [f"no end within {timeout:g} s (killed)"], False
    if rc < 0:
        return [f"killed by signal {-rc} ({signal.Signals(-rc).name})"], False
    if rc not in (0, 1, 2):
        return [f"exit code {rc}, not 0, 1 or 2"], False
    problems, late = exit2_problems(case, err, before, after) if rc == 2 else ([], False)
    for dev in ("/dev/null", "/dev/full"):
        if not stat.S_ISCHR(os.stat(dev).st_mode):
            problems.append(f"{dev} is no longer a character device")
    strays = [n for n in os.listdir("/dev") if re.match(r"(null|full)[.-]", n)]
    if strays:
        problems.append("files written into /dev: " + ", ".join(strays))
    return problems, late
