"""The command line of scripts/report.py: options, loading, the output folder."""
import argparse
import importlib.util
import os
import sys

from .build import write_report
from .figures import Plotter
from .fmt import slug
from .load import InputError, load_all
from .sections import gaps

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(message):
    print(f"report: error: {message}", file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(f"{message} (see --help)")


def parse_args(argv, doc):
    p = Parser(prog="report.py", description=doc.split("\n\n")[0],
               epilog=doc[doc.index("usage:"):],
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", nargs="+", metavar="RESULT.json")
    p.add_argument("--out-dir", help="where REPORT.md and fig-*.png go (default: "
                   "results/<gpu> of this checkout)")
    p.add_argument("--title", help="the report's title")
    p.add_argument("--no-plots", action="store_true", help="write REPORT.md without figures")
    return p.parse_args(argv)


def main(argv, doc):
    """scripts/report.py: doc is its docstring (the --help text)."""
    args = parse_args(argv, doc)
    if not args.no_plots and importlib.util.find_spec("matplotlib") is None:
        hint = ""
        if not os.path.realpath(sys.executable).startswith("/usr/bin/") and \
                os.path.exists("/usr/bin/python3"):
            hint = " (Debian's package serves /usr/bin/python3: try /usr/bin/python3 " \
                   "scripts/report.py)"
        fail(f"matplotlib is not importable by {sys.executable}: install python3-matplotlib "
             f"(scripts/setup.sh does), or pass --no-plots{hint}")
    args.results, args.side = gaps.split_inputs(args.results)
    try:
        contexts, benches, missing = load_all(args.results)
        args.side.load()
    except (InputError, gaps.InputError) as e:
        fail(str(e))
    if not benches:
        fail("no measured gpucmp benchmark (<workload>/<cuda|opencl>/<variant>/...) in "
             + ", ".join(args.results))
    if args.out_dir is None:
        devices = sorted({c.get(k) for _, c, _ in contexts for k in ("cuda.device",
                                                                     "opencl.device")
                          if c.get(k)})
        first = next((c.get(k) for _, c, _ in contexts for k in ("cuda.device", "opencl.device")
                      if c.get(k)), None)
        if first is None:
            fail("the context names no device (cuda.device/opencl.device): pass --out-dir")
        if len({slug(d) for d in devices}) > 1:
            print(f"report: warning: the inputs name several devices ({', '.join(devices)}); "
                  f"writing to results/{slug(first)}", file=sys.stderr)
        args.out_dir = os.path.join(REPO, "results", slug(first))
    try:
        os.makedirs(args.out_dir, exist_ok=True)
    except OSError as e:
        fail(f"{args.out_dir}: cannot create ({e.strerror or e})")
    plotter = None if args.no_plots else Plotter(args.out_dir)
    try:
        report_path, figures = write_report(args, contexts, benches, missing, plotter)
    except OSError as e:
        fail(f"{args.out_dir}: cannot write ({e.strerror or e})")
    print(f"report: wrote {report_path}" + (f" and {len(figures)} figures: "
                                             + ", ".join(os.path.basename(f) for f in figures)
                                             if figures else " (no figures)"))
    return 0
