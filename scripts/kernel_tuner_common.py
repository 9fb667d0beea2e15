"""What the parts of scripts/kernel_tuner_side.py share: the script's name, the two
backends, Kernel Tuner's exhaustive strategy, gpucmp's shape specs as sort keys
("256" (1-D), "32x8" (2-D, x by y)), and bad input (BadInput, fail: one line on
stderr, exit 2) and progress lines (say)."""
import sys

import cli_args

NAME = "kernel_tuner_side"
BACKENDS = ("cuda", "opencl")
EXHAUSTIVE = "brute_force"


class BadInput(Exception):
    """Exit 2 with this one line."""


def fail(message):
    cli_args.fail(NAME, message)


def say(message):
    print(f"{NAME}: {message}", file=sys.stderr, flush=True)


def shape_key(spec):
    return tuple(int(v) for v in spec.split("x"))

