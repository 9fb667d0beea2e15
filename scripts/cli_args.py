"""The scripts' command lines, one way: a usage error is one line
`<name>: error: <what> (see --help)` on stderr and exit 2, as every bad input."""
import argparse
import sys


def fail(name, message):
    print(f"{name}: error: {message}", file=sys.stderr)
    sys.exit(2)


def parser(name, doc):
    """An ArgumentParser for the script `name`.py whose docstring is `doc`: its first
    paragraph the description, from "exit:" on the epilog."""

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            fail(name, f"{message} (see --help)")

    return Parser(prog=f"{name}.py", description=doc.split("\n\n")[0],
                  epilog=doc[doc.index("exit:"):],
                  formatter_class=argparse.RawDescriptionHelpFormatter)
