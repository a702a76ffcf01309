"""The adapter's run mode (harness/adapter/port_check_run.py) against a stand-in pypto package
(tests/fixtures/run/mock-pypto) whose "simulator" executes the entry's Python body: inputs from
golden.py with a fixed seed, the comparison figures per output, and every failure class ending in
a result file with its own status."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
ADAPTER = os.path.join(SOURCE, "harness", "adapter", "port_check_adapter.py")
MOCK = os.path.join(SOURCE, "tests", "fixtures", "run", "mock-pypto", "python")

try:
    import torch  # noqa: F401

    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False

GOLDEN = '''
import torch

ENTRY = "row_softmax"
__outputs__ = ["out"]
RTOL = 1e-5
ATOL = 1e-6
SEED = 7


def generate_inputs(params=None):
    gen = torch.Generator().manual_seed(SEED)
    x = torch.randn(64, 128, generator=gen) * 4.0
    return [("x", x), ("out", torch.zeros(64, 128))]


def compute_golden(tensors, params=None):
    tensors["out"][:] = torch.softmax(tensors["x"], dim=-1)
'''

ORCH = '''
import torch
import pypto.language as pl


@pl.jit
def row_softmax(
    x,
    out,
):
    {body}
'''


@unittest.skipUnless(HAVE_TORCH, "torch is not installed for this interpreter")
class AdapterRunTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def port(self, body, golden=GOLDEN):
        self.write("pypto_src/golden.py", golden)
        self.write("pypto_src/orchestration.py", ORCH.replace("{body}", body))

    def run_mode(self, run=None, ptoas="/usr/bin/true", timeout=120):
        out = os.path.join(self.root, "out")
        result = os.path.join(self.root, "result.json")
        env = dict(os.environ, PYTHONPATH=MOCK, NO_COLOR="1")
        env.pop("MOCK_RUN", None)
        if run:
            env["MOCK_RUN"] = run
        if ptoas:
            env["MOCK_PTOAS"] = ptoas
        proc = subprocess.run([sys.executable, "-B", ADAPTER, "--project", os.path.join(self.root, "pypto_src"),
                               "--platform", "a2a3", "--out-dir", out, "--result", result, "--mode", "run"],
                              env=env, capture_output=True, text=True, timeout=timeout)
        with open(result) as f:
            return proc, json.load(f)

    def test_a_correct_port_passes_with_zero_error(self):
        self.port('out[:] = torch.softmax(x, dim=-1)')
        proc, data = self.run_mode()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(data["schema"], "port-check-run-result/1")
        self.assertEqual(data["status"], "ok")
        self.assertTrue(data["passed"])
        [out] = data["outputs"]
        self.assertEqual(out["name"], "out")
        self.assertTrue(out["passed"])
        self.assertEqual(out["verdict"], "pass")
        self.assertEqual(out["mismatches"], 0)
        self.assertEqual(out["elements"], 64 * 128)
        self.assertEqual(out["max_abs_err"], 0.0)
        self.assertEqual((data["rtol"], data["atol"], data["tolerance_source"]), (1e-5, 1e-6, "golden.py"))
        self.assertEqual(data["platform"], "a2a3sim")
        self.assertEqual(data["inputs_source"], "generate_inputs")
        self.assertEqual(data["golden_function"], "compute_golden")
        loc = data["entry_location"]
        self.assertTrue(loc["file"].endswith("orchestration.py"))
        self.assertEqual(loc["params"]["out"], 9)  # the line of the `out,` parameter

    def test_a_wrong_reduction_axis_is_a_mismatch_with_figures(self):
        self.port('out[:] = torch.softmax(x, dim=0)')
        proc, data = self.run_mode()
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(data["status"], "ok")
        self.assertFalse(data["passed"])
        [out] = data["outputs"]
        self.assertEqual(out["verdict"], "mismatch")
        self.assertGreater(out["mismatch_share"], 0.5)
        self.assertGreater(out["max_abs_err"], 0.01)
        self.assertGreater(out["max_rel_err"], 0.1)
        first = out["first_mismatch"]
        self.assertEqual(first["index"], [0, 0])
        self.assertGreater(abs(first["actual"] - first["expected"]), 1e-6 + 1e-5 * abs(first["expected"]))
        self.assertFalse(out["never_written"])
        self.assertEqual(out["nan_actual"], 0)

    def test_a_missing_scale_mismatches_by_the_scale(self):
        self.port('out[:] = torch.softmax(x, dim=-1) * 0.5')
        _, data = self.run_mode()
        [out] = data["outputs"]
        self.assertEqual(out["verdict"], "mismatch")
        self.assertAlmostEqual(out["max_rel_err"], 0.5, places=6)

    def test_an_output_never_written_is_flagged(self):
        self.port('pass')
        _, data = self.run_mode()
        [out] = data["outputs"]
        self.assertTrue(out["never_written"])
        self.assertEqual(out["verdict"], "never_written")
        self.assertEqual(out["nonzero_actual"], 0)
        self.assertEqual(out["zero_where_expected_nonzero"], out["elements"])
        self.assertGreater(out["mismatches"], out["elements"] // 2)  # golden values below ATOL still match 0

    def test_nan_and_inf_are_counted_and_never_close(self):
        self.port('out[:] = torch.softmax(x, dim=-1)\n    out[0, 3] = float("nan")\n    out[1, 0] = float("inf")')
        _, data = self.run_mode()
        [out] = data["outputs"]
        self.assertEqual((out["nan_actual"], out["inf_actual"]), (1, 1))
        self.assertEqual(out["mismatches"], 2)
        self.assertEqual(out["first_mismatch"]["index"], [0, 3])
        self.assertIsNone(out["first_mismatch"]["actual"])  # NaN is not JSON: null, with the text beside it
        self.assertEqual(out["first_mismatch"]["actual_text"], "nan")
        self.assertEqual(out["max_abs_err"], 0.0)  # over the finite pairs

    def test_inputs_are_the_same_on_every_run(self):
        golden = GOLDEN.replace("gen = torch.Generator().manual_seed(SEED)\n    x = torch.randn(64, 128, generator=gen)",
                                "x = torch.randn(64, 128)")
        self.port('out[:] = torch.softmax(x, dim=0)', golden=golden)
        _, first = self.run_mode()
        _, second = self.run_mode()
        self.assertEqual(first["seed"], 0)
        self.assertEqual(first["outputs"][0]["first_mismatch"], second["outputs"][0]["first_mismatch"])

    def test_a_golden_that_replaces_instead_of_writing_in_place_is_a_shape_mismatch(self):
        golden = GOLDEN.replace('tensors["out"][:] = torch.softmax(tensors["x"], dim=-1)',
                                'tensors["out"] = tensors["x"].sum(dim=-1)')
        self.port('out[:] = torch.softmax(x, dim=-1)', golden=golden)
        _, data = self.run_mode()
        [out] = data["outputs"]
        self.assertEqual(out["verdict"], "shape_mismatch")
        self.assertEqual((out["shape"], out["expected_shape"]), ([64, 128], [64]))

    def test_the_golden_raising_is_golden_error_with_its_traceback(self):
        golden = GOLDEN.replace('tensors["out"][:] = torch.softmax(tensors["x"], dim=-1)',
                                'tensors["out"][:] = torch.softmax(tensors["y"], dim=-1)')
        self.port('out[:] = torch.softmax(x, dim=-1)', golden=golden)
        proc, data = self.run_mode()
        self.assertEqual(proc.returncode, 1)
        self.assertEqual((data["status"], data["phase"]), ("golden_error", "golden"))
        self.assertEqual(data["exception_type"], "KeyError")
        self.assertIn("golden.py", data["traceback"])

    def test_generate_inputs_raising_is_input_error(self):
        golden = GOLDEN.replace("x = torch.randn(64, 128, generator=gen) * 4.0", "x = torch.randn(64, 128, generator=gen) @ torch.ones(3)")
        self.port('out[:] = torch.softmax(x, dim=-1)', golden=golden)
        _, data = self.run_mode()
        self.assertEqual((data["status"], data["phase"]), ("input_error", "inputs"))
        self.assertEqual(data["exception_type"], "RuntimeError")

    def test_missing_outputs_or_golden_function_is_a_contract_error(self):
        self.port('out[:] = torch.softmax(x, dim=-1)', golden=GOLDEN.replace('__outputs__ = ["out"]', '__outputs__ = ["y"]'))
        _, data = self.run_mode()
        self.assertEqual(data["status"], "contract_error")
        self.assertIn("'y'", data["exception_message"])
        self.port('out[:] = torch.softmax(x, dim=-1)', golden=GOLDEN.replace("def compute_golden", "def reference"))
        _, data = self.run_mode()
        self.assertEqual(data["status"], "contract_error")
        self.assertIn("no golden function", data["exception_message"])

    def test_no_ptoas_stops_before_compiling(self):
        self.port('out[:] = torch.softmax(x, dim=-1)')
        _, data = self.run_mode(ptoas=None)
        self.assertEqual((data["status"], data["ptoas"]), ("ptoas_missing", "skipped"))

    def test_runtime_failures_are_run_errors_with_the_exception(self):
        self.port('out[:] = torch.softmax(x, dim=-1)')
        for mode, kind, text in (("no_simpler", "ModuleNotFoundError", "simpler_setup"),
                                 ("old_torch", "AttributeError", "uint16"),
                                 ("no_gxx15", "RuntimeError", "g++-15 not found"),
                                 ("gcc12", "RuntimeError", "Unsupported element cmp"),
                                 ("kernel_error", "RuntimeError", "TROWMAXX")):
            _, data = self.run_mode(run=mode)
            self.assertEqual((data["status"], data["phase"]), ("run_error", "execute"), mode)
            self.assertEqual(data["exception_type"], kind, mode)
            self.assertIn(text, data["exception_message"], mode)

    def test_a_compile_failure_in_run_mode_is_compile_error(self):
        self.port('out[:] = torch.softmax(x, dim=-1)')
        _, data = self.run_mode(run="compile_error")
        self.assertEqual((data["status"], data["phase"]), ("compile_error", "compile"))

    def test_tolerances_give_an_output_its_own_pair(self):
        # Half the softmax: every element off by up to 0.5, far outside RTOL/ATOL, inside its own atol.
        self.port('out[:] = torch.softmax(x, dim=-1) * 0.5',
                  golden=GOLDEN + '\nTOLERANCES = {"out": (0.0, 0.6)}\n')
        proc, data = self.run_mode()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        [out] = data["outputs"]
        self.assertEqual((out["rtol"], out["atol"], out["tolerance_source"]), (0.0, 0.6, "TOLERANCES"))
        self.assertEqual((data["rtol"], data["atol"]), (1e-5, 1e-6))  # the global pair is unchanged
        self.port('out[:] = torch.softmax(x, dim=-1) * 0.5',
                  golden=GOLDEN + '\nTOLERANCES = {"out": {"rtol": 0.0, "atol": 0.1}}\n')
        _, data = self.run_mode()
        self.assertFalse(data["passed"])
        self.assertEqual(data["outputs"][0]["atol"], 0.1)

    def test_outputs_without_their_own_pair_take_rtol_and_atol(self):
        self.port('out[:] = torch.softmax(x, dim=-1)')
        _, data = self.run_mode()
        self.assertEqual(data["outputs"][0]["tolerance_source"], "golden.py")

    def test_bad_tolerances_are_contract_errors(self):
        for table, text in (('{"y": (0, 1)}', "'y', which are not outputs"),
                            ('{"out": (0, -1)}', "non-negative"),
                            ('{"out": 0.1}', "must be (rtol, atol)"),
                            ('{"out": {"rtol": 0, "tol": 1}}', "unknown keys"),
                            ('[("out", 0, 1)]', "must be a dict")):
            self.port('out[:] = torch.softmax(x, dim=-1)', golden=GOLDEN + f"\nTOLERANCES = {table}\n")
            proc, data = self.run_mode()
            self.assertEqual(data["status"], "contract_error", table)
            self.assertIn(text, data["exception_message"], table)
            self.assertEqual(proc.returncode, 1)

    def chained(self, body, run=None):
        """The compile mode with the run chained to it (--then-run-*), as port-check run starts it."""
        self.port(body)
        env = dict(os.environ, PYTHONPATH=MOCK, NO_COLOR="1", MOCK_PTOAS="/usr/bin/true")
        env.pop("MOCK_RUN", None)
        if run:
            env["MOCK_RUN"] = run
        files = {k: os.path.join(self.root, k) for k in ("compile.json", "run.json", "out", "run_out")}
        proc = subprocess.run([sys.executable, "-B", ADAPTER, "--project", os.path.join(self.root, "pypto_src"),
                               "--platform", "a2a3", "--out-dir", files["out"], "--result", files["compile.json"],
                               "--then-run-out-dir", files["run_out"], "--then-run-result", files["run.json"]],
                              env=env, capture_output=True, text=True, timeout=120)
        return proc, files

    def test_a_run_chained_to_the_compile_writes_both_results_split_by_the_marker(self):
        proc, files = self.chained('out[:] = torch.softmax(x, dim=-1) * 0.5')
        with open(files["compile.json"]) as f:
            compiled = json.load(f)
        with open(files["run.json"]) as f:
            ran = json.load(f)
        self.assertEqual((compiled["status"], compiled["mode"]), ("ok", "compile"))
        self.assertEqual((ran["status"], ran["mode"], ran["schema"]), ("ok", "run", "port-check-run-result/1"))
        self.assertFalse(ran["passed"])
        self.assertEqual(ran["output_dir"], files["run_out"])
        self.assertEqual(proc.returncode, 1, proc.stderr)  # the run's status: the output differs
        lines = proc.stderr.splitlines()
        marker = [i for i, line in enumerate(lines) if line.startswith("[port-check] run phase after ")]
        self.assertEqual(len(marker), 1, proc.stderr)
        self.assertTrue(any("'out' FAIL" in line for line in lines[marker[0]:]), proc.stderr)

    def test_a_failed_compile_runs_nothing(self):
        proc, files = self.chained('out[:] = torch.softmax(x, dim=-1)', run="compile_error")
        self.assertFalse(os.path.exists(files["run.json"]))
        self.assertNotIn("[port-check] run phase", proc.stderr)


if __name__ == "__main__":
    unittest.main()
