#!/usr/bin/env python3
"""scripts/ncu_durations.py: medians per kernel from ncu's default CSV, units, bad input."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "scripts", "ncu_durations.py")
HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
          '"Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit",'
          '"Metric Value"\n')


def row(i, kernel, unit, value):
    return (f'"{i}","1","p","h","{kernel}","1","7","(256, 1, 1)","(128, 1, 1)","0","9.0",'
            f'"Command line profiler metrics","gpu__time_duration.sum","{unit}","{value}"\n')


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class NcuDurations(unittest.TestCase):
    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_median_per_kernel_in_microseconds(self):
        path = self.write("==PROF== Connected\n" + HEADER + row(0, "A(int)", "nsecond", "1,000") +
                          row(1, "A(int)", "usecond", "3") + row(2, "A(int)", "nsecond", "2000") +
                          row(3, "B", "msecond", "0.5"))
        r = run(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [line.split("\t") for line in r.stdout.splitlines()]
        self.assertEqual([cells[1:] for cells in lines], [["A", "3", "2.00", "1.00"],
                                                  ["B", "1", "500.00", "500.00"]])

    def test_bad_input_exits_2_with_one_line(self):
        for text in ("", "not,a,table\n", HEADER):
            r = run(self.write(text))
            self.assertEqual(r.returncode, 2, text)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertEqual(run("/nonexistent.csv").returncode, 2)
        self.assertEqual(run(self.write(HEADER + row(0, "A", "furlongs", "1"))).returncode, 2)


if __name__ == "__main__":
    unittest.main()
