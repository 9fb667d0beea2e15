#!/usr/bin/env python3
"""Every complete 1-D local-size sweep of trapezoid and sort in gpucmp-bench
JSON files, one line each for replay.cpp: source, global range, the kernel's
registers (the same run's tuner row's tuner_kernel_regs, 0 where it has none)
and each shape's median time (us). A curve lacking any power of two from 1 to
1024 is left out and named on stderr."""

import json
import re
import statistics
import sys

ROW = re.compile(r"^(trapezoid|sort)/(cuda|opencl)/(\w+)/(items|n):(\d+)/local:(\w+)/")


def curves(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    times, regs = {}, {}
    for b in doc.get("benchmarks", []):
        m = ROW.match(b.get("run_name", ""))
        if not m or b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        kernel, api, variant, what, count, local = m.groups()
        key = (kernel, api, variant, int(count), what)
        if local == "tuner":
            regs[key] = int(b.get("tuner_kernel_regs") or 0)
        elif local.isdigit():
            times.setdefault(key, {}).setdefault(int(local), []).append(b["real_time"])
    for key, by_shape in sorted(times.items()):
        kernel, api, variant, count, what = key
        shapes = [2**i for i in range(11)]
        source = f"{path}:{kernel}/{api}/{variant}/{what}:{count}"
        if any(s not in by_shape for s in shapes):
            print(f"curves: {source}: not every shape 1..1024, left out", file=sys.stderr)
            continue
        global_x = count // 2 if kernel == "sort" else count
        medians = ",".join(f"{s}:{statistics.median(by_shape[s]):.6g}" for s in shapes)
        yield f"{source}\t{global_x}\t{regs.get(key, 0)}\t{medians}"


def main(paths):
    if not paths:
        print("curves: error: name one or more gpucmp-bench JSON files", file=sys.stderr)
        return 2
    found = 0
    for path in paths:
        try:
            for line in curves(path):
                print(line)
                found += 1
        except (OSError, ValueError, AttributeError, KeyError, TypeError) as e:
            print(f"curves: error: {path}: not a gpucmp-bench JSON file ({e!r})", file=sys.stderr)
            return 2
    if not found:
        print("curves: error: no complete 1-D sweep of trapezoid or sort in the files given",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
