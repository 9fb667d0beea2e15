#!/usr/bin/env python3
"""Tests scripts/tidy_keys.py, the key of check_tidy.sh's cache: it follows the
file, the checkout's headers it includes (by its depfile), its flags and
.clang-tidy; it holds no absolute path (two clones of one tree agree); a file
never built has no key (always checked)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "tidy_keys.py")


def make_tree(base):
    """A checkout with a.cpp (includes h.h), b.cpp (includes nothing) and its build."""
    root = os.path.join(base, "src")
    build = os.path.join(root, "build")
    os.makedirs(os.path.join(build, "obj"))
    files = {".clang-tidy": "Checks: 'bugprone-*'\n", "h.h": "int h();\n",
             "a.cpp": '#include "h.h"\nint a() { return h(); }\n', "b.cpp": "int b();\n",
             "g.h": "int g();\n"}
    for name, text in files.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    db = []
    for name, deps in (("a", ["a.cpp", "h.h", "/usr/include/stdio.h"]), ("b", ["b.cpp"])):
        db.append({"directory": build, "file": os.path.join(root, name + ".cpp"),
                   "command": f"/usr/bin/c++ -I{root} -O2 -o obj/{name}.o -c {root}/{name}.cpp"})
        with open(os.path.join(build, "obj", name + ".o.d"), "w") as f:
            f.write(f"obj/{name}.o: \\\n " + " \\\n ".join(
                d if d.startswith("/") else os.path.join(root, d) for d in deps) + "\n")
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(db, f)
    return root, build


def keys(root, build, version="version 14.0.6"):
    out = subprocess.run([sys.executable, SCRIPT, root, build, version,
                          os.path.join(root, "a.cpp"), os.path.join(root, "b.cpp")],
                         capture_output=True, text=True, check=True).stdout
    return {os.path.basename(f): k for k, f in (line.split() for line in out.splitlines())}


class TidyKeys(unittest.TestCase):
    def setUp(self):
        self.base = tempfile.mkdtemp()
        self.root, self.build = make_tree(self.base)
        self.before = keys(self.root, self.build)

    def edit(self, name, text):
        with open(os.path.join(self.root, name), "a") as f:
            f.write(text)

    def test_a_header_change_moves_its_includers_only(self):
        self.edit("h.h", "int h2();\n")
        after = keys(self.root, self.build)
        self.assertNotEqual(after["a.cpp"], self.before["a.cpp"])
        self.assertEqual(after["b.cpp"], self.before["b.cpp"])

    def test_an_unincluded_file_moves_nothing(self):
        self.edit("g.h", "int g2();\n")
        self.assertEqual(keys(self.root, self.build), self.before)

    def test_config_and_version_move_every_key(self):
        self.edit(".clang-tidy", "WarningsAsErrors: '*'\n")
        after = keys(self.root, self.build)
        self.assertTrue(all(after[f] != self.before[f] for f in after))
        self.assertNotEqual(keys(self.root, self.build, "version 15.0.0")["b.cpp"],
                            after["b.cpp"])

    def test_another_clone_has_the_same_keys(self):
        other_root, other_build = make_tree(tempfile.mkdtemp())
        self.assertEqual(keys(other_root, other_build), self.before)

    def test_a_file_never_built_has_no_key(self):
        os.remove(os.path.join(self.build, "obj", "b.o.d"))
        self.assertEqual(set(keys(self.root, self.build)), {"a.cpp"})

    def tearDown(self):
        shutil.rmtree(self.base, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
