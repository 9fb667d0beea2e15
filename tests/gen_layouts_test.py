#!/usr/bin/env python3
"""Tests scripts/gen_layouts.py: the header it writes for a good
description (the accessors, word offsets and field list of a record with an
array field), and a one-line error with exit 2 for each description it cannot
handle: a field type other than float, a duplicate field, a bad name, an empty
record, a count below 1, a file that is not JSON."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "gen_layouts.py")


def generate(desc, raw=None):
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "r.json"), os.path.join(tmp, "out.h")
        with open(src, "w", encoding="utf-8") as f:
            f.write(raw if raw is not None else json.dumps(desc))
        r = subprocess.run([sys.executable, SCRIPT, src, out], capture_output=True, text=True,
                           check=False)
        text = open(out, encoding="utf-8").read() if os.path.exists(out) else None
        return r, text


def record(*fields, name="rec"):
    return {"records": [{"name": name, "fields": [list(f) for f in fields]}]}


class Good(unittest.TestCase):
    def test_accessors_offsets_and_fields(self):
        r, text = generate(record(("a", "float"), ("b", "float", 3), ("c", "float")))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("#define REC_WORDS 5", text)
        self.assertIn('#define REC_FIELDS "a,b,c"', text)
        self.assertIn("#define REC_C 4", text)
        self.assertIn("#define rec_b(p, n, i, j) rec_at(p, n, i, 1 + (j))", text)
        self.assertIn("#define rec_c(p, n, i) rec_at(p, n, i, 4)", text)
        self.assertIn("GPUCMP_LAYOUT_INDEX(GPUCMP_LAYOUT, GPUCMP_TILE, (n), 5, (i), (w))", text)

    def test_unchanged_content_is_not_written_again(self):
        # Every configure runs the generator: the header keeps its timestamp
        # (nothing recompiles) unless its content changes.
        old = 1_000_000_000  # ns: a timestamp no write leaves
        with tempfile.TemporaryDirectory() as tmp:
            src, out = os.path.join(tmp, "r.json"), os.path.join(tmp, "out.h")

            def run(*fields):
                with open(src, "w", encoding="utf-8") as f:
                    json.dump(record(*fields), f)
                r = subprocess.run([sys.executable, SCRIPT, src, out], capture_output=True,
                                   text=True, check=False)
                self.assertEqual(r.returncode, 0, r.stderr)

            run(("a", "float"))
            os.utime(out, ns=(old, old))
            run(("a", "float"))
            self.assertEqual(os.stat(out).st_mtime_ns, old)
            run(("a", "float"), ("b", "float"))
            self.assertNotEqual(os.stat(out).st_mtime_ns, old)
            with open(out, encoding="utf-8") as f:
                self.assertIn("#define REC_WORDS 2", f.read())


class Bad(unittest.TestCase):
    def expect_error(self, needle, desc=None, raw=None):
        r, text = generate(desc, raw)
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn("gen_layouts: error: ", lines[0])
        self.assertIn(needle, lines[0])
        self.assertIsNone(text)

    def test_type_other_than_float(self):
        self.expect_error("field m has type 'double'; only float",
                          record(("a", "float"), ("m", "double")))

    def test_duplicate_field(self):
        self.expect_error("record rec: field a twice", record(("a", "float"), ("a", "float")))

    def test_bad_field_name(self):
        self.expect_error("field name 'X-1'", record(("X-1", "float")))

    def test_empty_record(self):
        self.expect_error("record rec: no fields", {"records": [{"name": "rec", "fields": []}]})

    def test_count_below_one(self):
        self.expect_error("field a has count 0", record(("a", "float", 0)))

    def test_not_json(self):
        self.expect_error("r.json", raw="{not json")


if __name__ == "__main__":
    unittest.main()
