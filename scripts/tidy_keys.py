#!/usr/bin/env python3
"""Prints, for each project .cpp given, the key of its clang-tidy result: a
SHA-256 over the clang-tidy version, .clang-tidy, the file's compile command
and the path and content of every file of the checkout (or the build tree) it
includes, as its object's depfile lists them; paths are taken relative to the
checkout and the build tree, so that another clone of the same code has the
same keys. A file whose depfile is missing (not built yet) gets no key and is
always checked. scripts/check_tidy.sh keeps a stamp per clean key.

usage: tidy_keys.py ROOT BUILD TIDY_VERSION FILE...   (one "KEY FILE" line each)
"""
import hashlib
import json
import os
import shlex
import sys


def depfile_deps(path):
    with open(path, encoding="utf-8") as f:
        text = f.read().replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    return deps.split()


def main(argv):
    root, build, version, files = argv[0], argv[1], argv[2], argv[3:]
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = {e["file"]: e for e in json.load(f)}
    with open(os.path.join(root, ".clang-tidy"), "rb") as f:
        config = f.read()
    for file in files:
        entry = commands.get(file)
        if entry is None:
            continue
        args = shlex.split(entry["command"])
        if "-o" not in args:
            continue
        obj = args[args.index("-o") + 1]
        depfile = os.path.join(entry["directory"], obj + ".d")
        if not os.path.exists(depfile):
            continue
        h = hashlib.sha256()
        h.update(version.encode() + b"\0" + config + b"\0")
        h.update(entry["command"].replace(build, "<build>").replace(root, "<root>").encode())
        for dep in sorted(set(depfile_deps(depfile))):
            path = os.path.normpath(os.path.join(entry["directory"], dep))
            for base, name in ((build, "<build>"), (root, "<root>")):
                if path.startswith(base + os.sep):
                    with open(path, "rb") as f:
                        h.update(f"{name}/{os.path.relpath(path, base)}\0".encode())
                        h.update(hashlib.sha256(f.read()).digest())
                    break
        print(h.hexdigest(), file)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
