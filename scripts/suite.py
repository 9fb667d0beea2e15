#!/usr/bin/env python3
"""Runs gpucmp's standard set on this machine's GPU into one folder, and its report.

One run, one revision: every part of the standard set (scripts/suite_parts/parts.py,
one per study; with two GPUs or more the multi-GPU parts join it; --list names
them and the parts that run only when --part names them: compute-sanitizer,
the judged problems at full length, the full work-size sweeps, ...) is a
gpucmp-bench run or a tool (suite_parts/tools.py) that writes <part>.json (or
its file) and <part>.log into the run's folder,
results/<gpu>/<date>-<revision>/ unless --out names another. Before the parts
it writes manifest.json (revision and whether the tree was clean, the command,
the GPU, driver and toolkit, the clocks policy); after each part, one line in
journal.jsonl (part, exit code, seconds), so that nothing finished is lost and
--resume DIR goes on where a run that was stopped, killed or crashed left off
(the parts whose exit code was 0 are not run again; a part that did not
finish runs again whole, the files of its earlier attempt kept beside as
<part>.attempt-N.*, suite_parts/attempts.py; the revision must be the
manifest's). A part this machine cannot run (no ncu, no mpirun, no NVIDIA
OpenCL for a part that needs it, no GPUCMP_JACOBI_SRC for the jacobi part) is
said, journaled as skipped with its reason and not run. A part stopped at its
limit gets SIGTERM (gpucmp-bench then writes the rows it finished); a part
killed or crashed leaves gpucmp-bench's journal, from which the suite makes
<part>.json, marked partial (journal_report.py).
Then REPORT.md and its figures from that folder alone (scripts/report.py). A
progress line on stderr before each part names it and the time left by the
parts' estimates, scaled by how the finished parts did.

usage: scripts/suite.py [--bench PATH] [--ptx PATH] [--out DIR | --resume DIR]
           [--part NAME[,NAME...]] [--size standard|quick] [--list] [--no-report]
exit: 0 every part ran and the report was written; 1 a part failed (the others
      still ran); 2 bad input (unknown part, an --out folder that is not empty,
      a --resume folder of another revision, no gpucmp-bench)
"""
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import cli_args  # noqa: E402
import journal_report  # noqa: E402
from command_output import command_output  # noqa: E402
from suite_parts import attempts, tools  # noqa: E402
from suite_parts.parts import PARTS, by_name, common_args, standard_parts  # noqa: E402

JOURNAL = "journal.jsonl"
TERM_GRACE_S = 60  # a part stopped at its limit: SIGTERM, then SIGKILL after this
MANIFEST = "manifest.json"


def fail(message):
    cli_args.fail("suite", message)


def say(message):
    print(f"suite: {message}", file=sys.stderr, flush=True)


def git(*args):
    r = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=False)
    return r.stdout.strip() if r.returncode == 0 else None


def revision():
    """(short revision, clean): GPUCMP_GIT_REVISION where set (a tree copied
    without its history), else git's; clean is None where git cannot tell."""
    if os.environ.get("GPUCMP_GIT_REVISION"):
        return os.environ["GPUCMP_GIT_REVISION"], None
    rev = git("rev-parse", "--short=7", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no")
    return (rev or "unknown"), (None if status is None else status == "")


def gpus():
    """The NVIDIA GPUs nvidia-smi lists (name, driver), [] where there is none."""
    out = command_output("nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader")
    return [dict(zip(("name", "driver"), (x.strip() for x in line.split(",", 1))))
            for line in (out or "").splitlines() if "," in line]


def device_slug(bench):
    """results/<slug>: the first GPU's name, else the first OpenCL device's."""
    names = [g["name"] for g in gpus()]
    if not names:
        listing = command_output(bench, "--list-devices") or ""
        names = re.findall(r"^\s*OpenCL device \d+: (.+?)(?: \(|$)", listing, re.M)
    name = names[0] if names else "unknown-device"
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug + (f"-x{len(names)}" if len(names) > 1 else "")  # a machine of several GPUs


def toolkit():
    out = command_output("nvcc", "--version") or ""
    m = re.search(r"release ([0-9.]+)", out)
    return f"nvcc {m.group(1)}" if m else None


def part_command(bench, part, size, out_dir):
    args = tools.launch_prefix(part) + [bench, "--size", size] + (
        common_args(part) if part.common else []) + tools.fill(part.args, bench)
    if size != "quick":
        args += part.sizes
    return args + [f"--benchmark_out={os.path.join(out_dir, part.name + '.json')}",
                   "--benchmark_out_format=json"]


def read_journal(out_dir):
    done = {}
    path = os.path.join(out_dir, JOURNAL)
    if not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                done[entry["part"]] = entry
            except (ValueError, KeyError, TypeError):
                # A line cut by a kill: the part it names is run again.
                say(f"warning: {path}:{n}: not a journal line, ignored")
    return done


def append_journal(out_dir, entry):
    path = os.path.join(out_dir, JOURNAL)
    # A line cut by a kill gets its end first, so that this entry stands alone.
    cut = os.path.exists(path) and os.path.getsize(path) > 0 and not _ends_a_line(path)
    with open(path, "a", encoding="utf-8") as f:
        f.write(("\n" if cut else "") + json.dumps(entry) + "\n")
        f.flush()
        os.fsync(f.fileno())


def _ends_a_line(path):
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def fmt_minutes(seconds):
    return f"{seconds / 60:.1f} min"


def run_part(args, part, out_dir, log):
    """One part, its output into log; its exit code (124: stopped at its limit)."""
    if part.tool != "bench":
        return tools.run(part, args.bench, args.ptx, out_dir, log, run_bounded)
    cmd = part_command(args.bench, part, args.size, out_dir)
    rc = run_bounded(cmd, log, part.limit_s, tools.launch_env(part))
    if rc != 0:
        recover_rows(os.path.join(out_dir, part.name + ".json"), rc, log)
    return rc


def run_bounded(cmd, log, limit_s, env=None):
    """Runs cmd; at its limit SIGTERM (gpucmp-bench then writes the report of the
    rows it finished), SIGKILL only if it is still there after TERM_GRACE_S."""
    log.write("$ " + shlex.join(cmd) + "\n")
    log.flush()
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        return proc.wait(timeout=limit_s)
    except subprocess.TimeoutExpired:
        log.write(f"\nsuite: stopped at its limit of {limit_s} s (SIGTERM)\n")
        log.flush()
        proc.terminate()
    try:
        proc.wait(timeout=TERM_GRACE_S)
    except subprocess.TimeoutExpired:
        log.write(f"suite: still running {TERM_GRACE_S} s after SIGTERM: SIGKILL\n")
        proc.kill()
        proc.wait()
    return 124


def recover_rows(report, rc, log):
    """After a failed part: its finished rows from gpucmp-bench's journal where
    the report itself was not written (journal_report.py)."""
    journal = report + journal_report.SUFFIX
    if not os.path.exists(journal):
        return
    try:
        _, rows, cut = journal_report.recover(journal, report, f"exit code {rc}")
    except (journal_report.JournalError, OSError) as e:
        log.write(f"suite: the journal was not made a report: {e}\n")
        return
    os.remove(journal)
    log.write(f"suite: {rows} finished rows recovered from the journal into {report}"
              f"{f' ({cut} cut lines left out)' if cut else ''}\n")


def run_parts(args, parts, out_dir):
    done = {k: v for k, v in read_journal(out_dir).items() if v.get("rc") == 0}
    todo = [p for p in parts if p.name not in done]
    if done:
        say(f"resuming {out_dir}: {len(done)} parts done, {len(todo)} to run")
    worst, spent, estimated = 0, 0.0, 0.0
    for i, part in enumerate(todo):
        remaining = sum(p.estimate_s for p in todo[i:])
        pace = spent / estimated if estimated > 0 else 1.0
        say(f"[{i + 1}/{len(todo)}] {part.name}: {part.what}; about "
            f"{fmt_minutes(remaining * pace)} left")
        log_path = os.path.join(out_dir, part.name + ".log")
        why_not = tools.requirement(part, args.bench)
        if why_not:
            # A skip, said and journaled: not run, not failed, not run again.
            say(f"{part.name}: skipped: {why_not}")
            append_journal(out_dir, {"part": part.name, "rc": 0, "seconds": 0,
                                     "skipped": why_not})
            continue
        kept = attempts.set_aside(out_dir, tools.made(part), os.path.basename(log_path))
        for line in kept:
            say(f"{part.name}: {line}")
        t0 = time.monotonic()
        with open(log_path, "w", encoding="utf-8") as log:
            log.writelines(f"suite: {line}\n" for line in kept)
            rc = run_part(args, part, out_dir, log)
        seconds = time.monotonic() - t0
        spent += seconds
        estimated += part.estimate_s
        entry = {"part": part.name, "rc": rc, "seconds": round(seconds, 1),
                 "file": tools.made(part)}
        if kept:
            entry["earlier_attempt"] = "; ".join(kept)
        append_journal(out_dir, entry)
        if rc != 0:
            say(f"{part.name}: exit code {rc} after {seconds:.0f} s (see {log_path})")
            worst = max(worst, 1)
    return worst


def setup_seconds():
    """The set-up and build before the parts, in seconds, as scripts/suite.sh
    measured them (GPUCMP_SETUP_SECONDS); None when suite.py runs alone."""
    text = os.environ.get("GPUCMP_SETUP_SECONDS")
    if text is None:
        return None
    if not text.isdigit():
        fail(f"GPUCMP_SETUP_SECONDS={text!r}: not a whole number of seconds")
    return int(text)


def add_parts(out_dir, made, parts, argv):
    """A resumed run adds the parts it names that the manifest lacks to its
    "parts", in order, so that the readers of the folder (REPORT, the README's
    tables) find every part's file, and its command to "resumed", whatever it
    ran: the manifest names every invocation that wrote into the folder."""
    listed = made.get("parts") if isinstance(made.get("parts"), list) else []
    made["parts"] = listed + [p.name for p in parts if p.name not in listed]
    made.setdefault("resumed", []).append("scripts/suite.py " + shlex.join(argv))
    with open(os.path.join(out_dir, MANIFEST), "w", encoding="utf-8") as f:
        json.dump(made, f, indent=2)
        f.write("\n")


def write_manifest(out_dir, args, argv, rev, clean):
    listed = gpus()
    manifest = {
        "revision": rev,
        "clean_tree": clean,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": "scripts/suite.py " + shlex.join(argv),
        "size": args.size,
        "parts": [p.name for p in args.parts],
        "gpus": listed,
        "toolkit": toolkit(),
        "clocks": "not set by the suite: the GPU's own boost policy; every row records the "
                  "SM clock before and after its samples and the lowest between them (NVML)",
    }
    if setup_seconds() is not None:  # the parts' own seconds are in the journal
        manifest["setup_and_build_s"] = setup_seconds()
    with open(os.path.join(out_dir, MANIFEST), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


def write_report(out_dir):
    """REPORT.md from every part's JSON in the folder (a resumed run's earlier parts too)."""
    files = [os.path.join(out_dir, p.name + ".json") for p in PARTS
             if os.path.exists(os.path.join(out_dir, p.name + ".json"))]
    if not files:
        say("no part wrote results: no report")
        return 1
    cmd = [sys.executable, os.path.join(HERE, "report.py"), *files, "--out-dir", out_dir]
    if subprocess.run(cmd, check=False).returncode == 0:
        return 0
    # Without matplotlib the text alone, said so.
    say("the report with figures failed; writing REPORT.md without figures")
    return 0 if subprocess.run(cmd + ["--no-plots"], check=False).returncode == 0 else 1


def parse_args(argv):
    p = cli_args.parser("suite", __doc__)
    p.add_argument("--bench", default=os.path.join(ROOT, "build", "gpucmp-bench"),
                   help="the gpucmp-bench to run (default build/gpucmp-bench)")
    p.add_argument("--ptx", help="the gpucmp-ptx of the sass part (default: beside --bench)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", help="the run's folder (default results/<gpu>/<date>-<revision>)")
    where.add_argument("--resume", metavar="DIR", help="go on with the run in DIR")
    p.add_argument("--part", help="only these parts, comma-separated (--list names them)")
    p.add_argument("--size", choices=("standard", "quick"), default="standard")
    p.add_argument("--list", action="store_true", help="print the parts and their estimates")
    p.add_argument("--no-report", action="store_true", help="leave REPORT.md out")
    args = p.parse_args(argv)
    if args.ptx is None:
        args.ptx = os.path.join(os.path.dirname(os.path.abspath(args.bench)), "gpucmp-ptx")
    known = by_name()
    args.parts = standard_parts()
    if args.part is not None:
        names = args.part.split(",")
        for n in names:
            if n not in known:
                fail(f"--part: unknown part '{n}' (known: {', '.join(known)})")
        if len(set(names)) != len(names):
            fail(f"--part: a part is named twice in '{args.part}'")
        args.parts = [known[n] for n in names]
    return args


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    args = parse_args(argv)
    before = setup_seconds()
    if args.list:
        for part in args.parts if args.part else PARTS:
            where = "" if part.standard else "  (only with --part)"
            gpus_needed = f"  ({part.min_gpus} GPUs or more)" if part.min_gpus > 1 else ""
            print(f"{part.name:18} ~{part.estimate_s:4d} s  {part.what}{gpus_needed}{where}")
        chosen = args.parts
        counts = sorted({1, 2} | {p.min_gpus for p in chosen})
        print(f"{'standard set':18} " + ", ".join(
            f"~{sum(p.estimate_s for p in chosen if p.min_gpus <= n):4d} s on {n} GPU"
            + ("s" if n > 1 else "") for n in counts)
              if args.part is None else
              f"{'total':18} ~{sum(p.estimate_s for p in chosen):4d} s")
        return 0
    if not (os.path.isfile(args.bench) and os.access(args.bench, os.X_OK)):
        fail(f"no gpucmp-bench at {args.bench} (build it, or pass --bench)")
    if any(p.tool in ("sass", "crosssass") for p in args.parts) and not (
            os.path.isfile(args.ptx) and os.access(args.ptx, os.X_OK)):
        fail(f"no gpucmp-ptx at {args.ptx} for the sass parts (build it, pass --ptx, or leave "
             "them out with --part)")
    rev, clean = revision()
    visible = max(len(gpus()), 1)
    skipped = [p.name for p in args.parts if p.min_gpus > visible]
    args.parts = [p for p in args.parts if p.min_gpus <= visible]
    if args.resume:
        out_dir = args.resume
        try:
            with open(os.path.join(out_dir, MANIFEST), encoding="utf-8") as f:
                made = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"--resume {out_dir}: no readable {MANIFEST} ({e})")
        made_rev = made.get("revision") if isinstance(made, dict) else None
        if made_rev != rev:
            fail(f"--resume {out_dir}: made at revision {made_rev}, this tree is {rev}: one run "
                 "is one revision")
        if args.part is None and isinstance(made.get("parts"), list):
            known = by_name()
            args.parts = [known[n] for n in made["parts"] if n in known]
        add_parts(out_dir, made, args.parts, argv)
    else:
        out_dir = args.out or os.path.join(
            ROOT, "results", device_slug(args.bench),
            f"{datetime.date.today().isoformat()}-{rev}")
        if os.path.exists(out_dir) and (not os.path.isdir(out_dir) or os.listdir(out_dir)):
            fail(f"--out {out_dir}: exists and is not an empty folder (use --resume to go on "
                 "with a run)")
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            fail(f"--out {out_dir}: cannot create ({e.strerror or e})")
        write_manifest(out_dir, args, argv, rev, clean)
    if skipped:
        say(f"{', '.join(skipped)}: need more GPUs than the {visible} here, left out")
    if clean is False:
        say(f"warning: the tree at {rev} has uncommitted changes: the manifest says "
            "clean_tree false")
    say(f"{len(args.parts)} parts into {out_dir}, about "
        f"{fmt_minutes(sum(p.estimate_s for p in args.parts))} by their estimates")
    started = time.monotonic()
    worst = run_parts(args, args.parts, out_dir)
    if not args.no_report:
        worst = max(worst, write_report(out_dir))
    took = time.monotonic() - started
    say(f"done: {out_dir} (exit code {worst}), {fmt_minutes(took)} here"
        + (f", {fmt_minutes(took + before)} with the set-up and build ({before} s)"
           if before is not None else ""))
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
