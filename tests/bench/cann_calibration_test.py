#!/usr/bin/env python3
"""bench/cann_calibration/: the agreement table of port-check's device-time model with CANN's AICORE cost
model, recomputed from the recorded figures (bench/cann_calibration/recorded.json) and compared with the
one bench/README.md prints; the DSL twins in step with cases.py; the reading of CANN's swimlane output
(a real run of CANN's pypto 0.2.0, trimmed to the lanes that ran); and the skip without CANN's wheel."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CALIB = os.path.join(ROOT, "bench", "cann_calibration")
sys.path.insert(0, CALIB)
import cann_side  # noqa: E402
import compare  # noqa: E402
import make_dsl  # noqa: E402
from cases import CASES  # noqa: E402

CAPTURE = os.path.join(ROOT, "tests", "fixtures", "cann_costmodel", "add_16x64")
BEGIN = "<!-- cann-calibration table: bench/cann_calibration/compare.py table -->"
END = "<!-- end cann-calibration table -->"


def recorded():
    with open(compare.RECORDED) as f:
        return json.load(f)


class RecordedTable(unittest.TestCase):
    def test_the_readme_prints_the_table_the_recorded_figures_give(self):
        with open(os.path.join(ROOT, "bench", "README.md")) as f:
            readme = f.read()
        self.assertIn(BEGIN, readme)
        printed = readme.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"
        self.assertEqual(printed, compare.table(recorded()))

    def test_the_record_names_the_wheel_and_holds_every_case_on_both_sides(self):
        rec = recorded()
        self.assertEqual(rec["cann_pypto"]["version"], "0.2.0")
        self.assertRegex(rec["cann_pypto"]["libtile_fwk_simulation.so sha256"], "^[0-9a-f]{64}$")
        self.assertRegex(rec["port_check_commit"], "^[0-9a-f]{7,40}$")
        names = [c["name"] for c in CASES]
        self.assertGreaterEqual(len(rec["cases"]), 20)
        for c in rec["cases"]:
            self.assertIn(c["name"], names)
            pipe = c["pipe"]
            self.assertGreater(c["cann"][pipe], 0, c["name"])
            self.assertGreater(c["ours"][pipe], 0, c["name"])
            # ours per task: the pipes of one tile in series
            self.assertAlmostEqual(c["ours"]["task"], sum(c["ours"][p] for p in compare.PIPES), delta=0.5)

    def test_the_fixed_ops_agree_with_the_device_calibration_they_now_follow(self):
        # docs/perf-model.md §4: TDIV 4.03 cycles per 256-byte repeat + 31, TRSQRT 1.07 + 24 (910B3).
        by_name = {c["name"]: c for c in recorded()["cases"]}
        div, rsqrt = by_name["div_64x64"]["ours"]["VECTOR"], by_name["rsqrt_64x64"]["ours"]["VECTOR"]
        repeats = 64 * 64 * 4 / 256
        self.assertAlmostEqual(div, 31 + 4.03 * repeats, delta=2)
        self.assertAlmostEqual(rsqrt, 24 + 1.07 * repeats, delta=2)


class TableArithmetic(unittest.TestCase):
    def case(self, name, cls, ours, cann):
        zero = {p: 0 for p in compare.PIPES}
        return {"name": name, "cls": cls, "pipe": "VECTOR", "cann": dict(zero, VECTOR=cann, MTE2=100, task=200),
                "ours": dict(zero, VECTOR=ours, MTE2=50, task=100)}

    def test_median_and_spread_per_class(self):
        rec = {"cases": [self.case("a", "x", 10, 10), self.case("b", "x", 30, 10), self.case("c", "x", 20, 10)]}
        text = compare.table(rec)
        self.assertIn("| x | 3 | 2.00 | 1.00 - 3.00 |", text)
        self.assertIn("| MTE2 (GM -> UB / L1) | 3 | 0.50 | 0.50 - 0.50 |", text)

    def test_a_zero_figure_of_cann_is_an_infinite_ratio_not_a_crash(self):
        text = compare.table({"cases": [self.case("a", "x", 10, 0)]})
        self.assertIn("| a | x | VECTOR | 0 | 10 | inf |", text)

    def test_an_unreadable_record_is_exit_2_with_its_name(self):
        p = subprocess.run([sys.executable, os.path.join(CALIB, "compare.py"), "table", "/nonexistent/rec.json"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("cannot read recorded results /nonexistent/rec.json", p.stderr)


class DslTwins(unittest.TestCase):
    def test_each_fixture_is_what_make_dsl_writes_from_cases(self):
        by_cls = {}
        for c in CASES:
            by_cls.setdefault(c["cls"], []).append(c)
        files = sorted(f for f in os.listdir(os.path.join(CALIB, "dsl")) if f.endswith(".py"))
        self.assertEqual(files, sorted(f"{cls}.py" for cls in by_cls))
        for cls, cases in by_cls.items():
            with open(os.path.join(CALIB, "dsl", f"{cls}.py")) as f:
                self.assertEqual(f.read(), make_dsl.render(cls, cases), cls)


class CannOutput(unittest.TestCase):
    def test_tile_ops_and_the_task_of_a_real_run(self):
        ops, tasks = cann_side.parse_run(CAPTURE)
        self.assertEqual(sorted((o["pipe"], o["op"], o["cycles"]) for o in ops),
                         [("MTE_IN", "COPY_IN", 1448), ("MTE_IN", "COPY_IN", 1448), ("MTE_OUT", "COPY_OUT", 358),
                          ("VECTOR_ALU", "ADD", 77)])
        self.assertEqual(tasks, [{"core": "AIV24", "cycles": 3342}])
        figs = compare.cann_per_tile({"cases": [{"name": "add_16x64", "tile_ops": ops, "tasks": tasks}]})
        self.assertEqual(figs["add_16x64"]["MTE2"], 2896)
        self.assertEqual(figs["add_16x64"]["task"], 3342)

    def test_a_folder_without_the_output_says_which_file(self):
        with tempfile.TemporaryDirectory() as empty:
            with self.assertRaisesRegex(FileNotFoundError, "_simulate.pipe.swim.json"):
                cann_side.parse_run(empty)


class WithoutTheWheel(unittest.TestCase):
    def test_hw_native_sys_pypto_in_its_place_is_named_and_skipped(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "pypto"))
            with open(os.path.join(d, "pypto", "__init__.py"), "w") as f:
                f.write("language = None\n")  # hw-native-sys's shape: pypto.language, no frontend.jit
            env = dict(os.environ, PYTHONPATH=d)
            p = subprocess.run([sys.executable, os.path.join(CALIB, "cann_side.py")], capture_output=True,
                               text=True, env=env)
        self.assertEqual(p.returncode, 0)
        self.assertIn("cann_side.py: skipped:", p.stdout)
        self.assertIn("is not CANN's PyPTO (no pypto.frontend.jit / RunMode)", p.stdout)

    def test_no_pypto_at_all_is_named_and_skipped(self):
        saved = sys.modules.get("pypto")
        sys.modules["pypto"] = None  # import pypto raises ImportError
        try:
            module, why = cann_side.load_cann()
        finally:
            if saved is None:
                del sys.modules["pypto"]
            else:
                sys.modules["pypto"] = saved
        self.assertIsNone(module)
        self.assertIn("no `pypto` importable", why)
        self.assertIn("CANN's pypto 0.2.0", why)


if __name__ == "__main__":
    unittest.main()
