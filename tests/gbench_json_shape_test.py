#!/usr/bin/env python3
"""gpucmp-bench's JSON reads in Google Benchmark's own tools/compare.py.

Runs gpucmp-bench (the binary in $GPUCMP_BENCH, which CTest sets; default
build/gpucmp-bench) once on the default OpenCL device (PoCL on CI) with two
repetitions, then checks every field that compare.py's readers take from the
file, with the shape they need. The readers, in github.com/google/benchmark:
  tools/gbench/util.py:   load_benchmark_results (json.load, "context"
                          "json_schema_version", "benchmarks", "run_name"/"name"
                          for --benchmark_filter), sort_benchmark_results
                          ("family_index", "per_family_instance_index",
                          "run_type", "repetition_index");
  tools/gbench/report.py: is_potentially_comparable_benchmark and
                          partition_benchmarks ("name", "time_unit", "real_time",
                          "cpu_time"), get_timedelta_field_as_seconds (the
                          "time_unit" table), calculate_geomean ("run_type"),
                          get_difference_report ("label", "run_type",
                          "aggregate_name", "real_time", "cpu_time"),
                          calc_utest (at least 2 repetitions per name),
                          filter_benchmark, find_longest_name ("name").
Where $GBENCH_TOOLS names a checkout's tools/ folder (with numpy and scipy
importable, as in .venv), the test also runs those readers on the file itself."""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.environ.get("GPUCMP_BENCH") or os.path.join(HERE, "..", "build", "gpucmp-bench")
FILTER = "matrixMul/opencl/tile16/"
REPETITIONS = 2
# report.py _TIME_UNIT_TO_SECONDS_MULTIPLIER: the units get_timedelta_field_as_seconds knows.
TIME_UNITS = {"s", "ms", "us", "ns"}


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class GbenchJsonShape(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(BENCH, os.X_OK):
            raise unittest.SkipTest(f"no gpucmp-bench at {BENCH} (set GPUCMP_BENCH)")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "out.json")
        cmd = [BENCH, "--size", "quick", "--samples", "1",
               f"--benchmark_repetitions={REPETITIONS}", f"--benchmark_filter={FILTER}",
               f"--benchmark_out={cls.path}", "--benchmark_out_format=json"]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
        if run.returncode != 0:
            raise AssertionError(
                f"{' '.join(cmd)}: exit {run.returncode}\n{run.stdout}{run.stderr}")
        # util.py is_json_file/load_benchmark_results: plain json.load (NaN counters allowed).
        with open(cls.path, encoding="utf-8") as f:
            cls.doc = json.load(f)
        cls.rows = cls.doc.get("benchmarks")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_top_level(self):
        # util.py load_benchmark_results: a dict; "benchmarks" the list of rows;
        # "context" a dict whose "json_schema_version", where present, is 1.
        self.assertIsInstance(self.doc, dict)
        self.assertIsInstance(self.doc.get("context"), dict)
        self.assertEqual(self.doc["context"].get("json_schema_version", 1), 1)
        self.assertIsInstance(self.rows, list)
        self.assertGreater(len(self.rows), 0)

    def test_every_row_is_comparable(self):
        for row in self.rows:
            with self.subTest(row=row.get("name")):
                # report.py get_unique_benchmark_names, partition_benchmarks,
                # filter_benchmark, find_longest_name: "name", a string.
                self.assertIsInstance(row.get("name"), str)
                self.assertTrue(row["name"].startswith(FILTER))
                # util.py load_benchmark_results (benchmark_wanted): "run_name" or "name".
                self.assertIsInstance(row.get("run_name"), str)
                # report.py is_potentially_comparable_benchmark: time_unit, real_time,
                # cpu_time present; get_timedelta_field_as_seconds: a known unit;
                # get_difference_report/calculate_change: numbers (finite: the geomean).
                self.assertIn(row.get("time_unit"), TIME_UNITS)
                for field in ("real_time", "cpu_time"):
                    self.assertTrue(is_number(row.get(field)), field)
                    self.assertTrue(math.isfinite(row[field]), field)
                # util.py sort_benchmark_results: integer sort keys.
                for field in ("family_index", "per_family_instance_index"):
                    self.assertIsInstance(row.get(field), int, field)
                # util.py sort_benchmark_results, report.py calculate_geomean and
                # get_difference_report: "run_type".
                self.assertIn(row.get("run_type"), {"iteration", "aggregate"})
                # report.py get_difference_report: "label" (optional) is a string.
                self.assertIsInstance(row.get("label", ""), str)

    def test_iterations_and_aggregates(self):
        names = {}
        for row in self.rows:
            if row["run_type"] == "iteration":
                # Repetitions share the name (partition_benchmarks groups by it),
                # each with its repetition_index (sort_benchmark_results).
                self.assertEqual(row["name"], row["run_name"])
                self.assertIsInstance(row.get("repetition_index"), int)
                self.assertGreater(row["real_time"], 0)  # calculate_geomean: no zero times
                self.assertEqual(row.get("repetitions"), REPETITIONS)
                names.setdefault(row["name"], []).append(row["repetition_index"])
            else:
                # get_difference_report: "aggregate_name"; an aggregate's own name, so
                # that partition_benchmarks never mixes it with the repetitions.
                self.assertIsInstance(row.get("aggregate_name"), str)
                self.assertEqual(row["name"], f"{row['run_name']}_{row['aggregate_name']}")
        self.assertGreater(len(names), 0)
        for name, indices in names.items():
            # report.py calc_utest: at least UTEST_MIN_REPETITIONS (2) values per name.
            self.assertEqual(sorted(indices), list(range(REPETITIONS)), name)
        aggregates = {r["aggregate_name"] for r in self.rows if r["run_type"] == "aggregate"}
        self.assertLessEqual({"mean", "median", "stddev"}, aggregates)

    def test_sort_keys_identify_one_benchmark(self):
        # util.py sort_benchmark_results orders by (family_index,
        # per_family_instance_index): one run_name for each pair, so sorting keeps
        # every benchmark's rows together.
        seen = {}
        for row in self.rows:
            key = (row["family_index"], row["per_family_instance_index"])
            self.assertEqual(seen.setdefault(key, row["run_name"]), row["run_name"], key)

    def test_labels_read_by_the_report(self):
        # scripts/gpucmp_report/variant_facts.py reads a labelled row's base, chain and
        # step from its label ("from=source; base=tile16; options=-DTILE=16" here):
        # every label is in that form and names the source kernel the filter runs.
        sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
        from gpucmp_report import variant_facts  # noqa: E402
        for row in self.rows:
            label = row.get("label")
            if not label:
                continue  # a binary built before the harness labelled its rows
            with self.subTest(row=row["name"], label=label):
                facts = variant_facts.of(row["name"].split("/")[2], label)
                self.assertTrue(facts.labelled)
                self.assertEqual((facts.base, facts.family), ("tile16", None))

    @unittest.skipUnless(os.environ.get("GBENCH_TOOLS"), "GBENCH_TOOLS not set")
    def test_upstream_readers(self):
        sys.path.insert(0, os.environ["GBENCH_TOOLS"])
        import gbench.report  # noqa: E402  (Google Benchmark's tools/gbench)
        import gbench.util  # noqa: E402
        doc = gbench.util.sort_benchmark_results(
            gbench.util.load_benchmark_results(self.path, FILTER))
        diff = gbench.report.get_difference_report(doc, doc, utest=True)
        names = {r["name"] for r in diff}
        self.assertLessEqual({r["name"] for r in self.rows}, names)
        self.assertIn("OVERALL_GEOMEAN", names)
        self.assertTrue(any(r["utest"] for r in diff))  # the U test ran
        self.assertTrue(gbench.report.print_difference_report(diff, utest=True, use_color=False))


if __name__ == "__main__":
    unittest.main()
