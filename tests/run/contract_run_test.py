"""The run-time half of the correctness contract (docs/contract.md §2, §4, §5, §6) in the adapter's run
mode, against the stand-in pypto of tests/fixtures/run/mock-pypto (its "simulator" runs the entry's
Python body on the host tensors): every case of golden.py's CONTRACT under every seed, the comparators
and statistics, the checks against gamed goldens (GOLD020-GOLD023), frozen goldens, --case,
--no-contract, contract errors, a golden.py without CONTRACT running once as before, and a pypto-lib block
whose build_tensor_specs(params) draws each case's inputs (§8)."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
ADAPTER_DIR = os.path.join(SOURCE, "harness", "adapter")
ADAPTER = os.path.join(ADAPTER_DIR, "port_check_adapter.py")
MOCK = os.path.join(SOURCE, "tests", "fixtures", "run", "mock-pypto", "python")

try:
    import torch

    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False

SEEDS = [20260301, 7, 1234]

CONTRACT = '''{
    "kind": "softmax",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1.0e4}},
        "tail": {"category": "tail", "params": {"rows": 37}},
    },
}'''

GOLDEN = '''
import os
import torch

ENTRY = "row_softmax"
__outputs__ = ["out"]
RTOL = 1e-5
ATOL = 1e-6
ALL_CASES = {"default": {"rows": 64, "cols": 128, "scale": 4.0}}
DEFAULT_CASE = "default"

CONTRACT = @CONTRACT@


def generate_inputs(params):
    gen = torch.Generator().manual_seed(params.get("seed", 0))
    x = torch.randn(params["rows"], params["cols"], generator=gen) * params["scale"]
    return [("x", x), ("out", torch.zeros(params["rows"], params["cols"]))]


def compute_golden(tensors, params):
    if os.environ.get("GOLDEN_MUST_NOT_RUN"):
        raise RuntimeError("compute_golden ran although the golden is frozen")
    if params.get("scale", 0) > 1.0e3 and os.environ.get("GOLDEN_FAILS_LARGE"):
        raise ValueError("no reference for large values")
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
    @BODY@
'''

GOOD = 'out[:] = torch.softmax(x, dim=-1)'

QUANT_GOLDEN = '''
import torch

ENTRY = "quant"
__outputs__ = ["q"]
CONTRACT = {
    "kind": "quantize",
    "seeds": 3,
    "cases": {"base": {"category": "base"}},
    "compare": {"q": @COMPARE@},
}


def generate_inputs(params):
    gen = torch.Generator().manual_seed(params["seed"])
    x = torch.rand(16, 32, generator=gen) * 10 - 5
    return [("x", x), ("q", torch.zeros(16, 32, dtype=torch.int8))]


def compute_golden(tensors, params):
    tensors["q"][:] = torch.round(tensors["x"] * 10).to(torch.int8)
'''

QUANT_ORCH = '''
import torch
import pypto.language as pl


@pl.jit
def quant(x, q):
    q[:] = torch.round(x * 10).to(torch.int8)
    @BODY@
'''


# A pypto-lib block (docs/contract.md §8): one program file, its inputs drawn by build_tensor_specs(params) with
# TensorSpec init_value callables on generators of their own, its golden given the params.
BLOCK = '''
import functools

import pypto.language as pl
import torch

SEED = 5
RTOL = 1e-6
ATOL = 1e-6
CONTRACT = {
    "kind": "elementwise",
    "seeds": [1, 2, 3],
    "cases": {"base": {"category": "base"}, "large": {"category": "large", "params": {"scale": 100.0}}},
}


@pl.jit
def double_block(x, y):
    y[:] = x * 2.0


@functools.lru_cache(maxsize=4)
def _x(seed, scale):
    return torch.randn(16, 32, generator=torch.Generator().manual_seed(seed)) * scale


def build_tensor_specs(params=None):
    from golden import TensorSpec

    params = params or {}
    case = (params.get("seed", SEED), params.get("scale", 1.0))
    return [
        TensorSpec("x", [16, 32], torch.float32, init_value=lambda: _x(*case)),
        TensorSpec("y", [16, 32], torch.float32, is_output=True),
    ]


def golden_double_block(tensors, params=None):
    if not torch.equal(tensors["x"], _x(params["seed"], params.get("scale", 1.0))):
        raise ValueError("the inputs are not the case's")
    tensors["y"][:] = tensors["x"] * 2.0
'''

@unittest.skipUnless(HAVE_TORCH, "torch is not installed for this interpreter")
class ContractRunTest(unittest.TestCase):
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

    def port(self, body=GOOD, contract=CONTRACT, golden=None):
        text = golden if golden is not None else GOLDEN.replace("@CONTRACT@", contract)
        self.write("pypto_src/golden.py", text)
        self.write("pypto_src/orchestration.py", ORCH.replace("@BODY@", body))

    def quant_port(self, body="pass", compare='{"max_steps": {"1": 4}}'):
        self.write("pypto_src/golden.py", QUANT_GOLDEN.replace("@COMPARE@", compare))
        self.write("pypto_src/orchestration.py", QUANT_ORCH.replace("@BODY@", body))

    def run_mode(self, *extra, run=None, env=None, expect_code=None):
        out = os.path.join(self.root, "out")
        result = os.path.join(self.root, "result.json")
        if os.path.exists(result):
            os.unlink(result)
        full_env = dict(os.environ, PYTHONPATH=MOCK, NO_COLOR="1", MOCK_PTOAS="/usr/bin/true",
                        MOCK_COMPILE_LOG=os.path.join(self.root, "compiles.jsonl"))
        for key in ("MOCK_RUN", "GOLDEN_MUST_NOT_RUN", "GOLDEN_FAILS_LARGE"):
            full_env.pop(key, None)
        if run:
            full_env["MOCK_RUN"] = run
        full_env.update(env or {})
        if os.path.exists(full_env["MOCK_COMPILE_LOG"]):
            os.unlink(full_env["MOCK_COMPILE_LOG"])
        proc = subprocess.run([sys.executable, "-B", ADAPTER, "--project", os.path.join(self.root, "pypto_src"),
                               "--platform", "a2a3", "--out-dir", out, "--result", result, "--mode", "run", *extra],
                              env=full_env, capture_output=True, text=True, timeout=240)
        with open(result) as f:
            data = json.load(f, parse_constant=lambda c: self.fail(f"{c} in the result JSON"))
        if expect_code is not None:
            self.assertEqual(proc.returncode, expect_code, proc.stderr[-3000:])
        return proc, data

    def compiles(self):
        with open(os.path.join(self.root, "compiles.jsonl")) as f:
            return [json.loads(line) for line in f]

    # ---- cases x seeds

    def test_three_cases_by_three_seeds_all_pass(self):
        self.port()
        proc, data = self.run_mode(expect_code=0)
        self.assertEqual((data["status"], data["phase"]), ("ok", "done"))
        self.assertTrue(data["passed"])
        contract = data["contract"]
        self.assertTrue(contract["declared"])
        self.assertEqual((contract["kind"], contract["seeds"]), ("softmax", SEEDS))
        labels = [f"{c['id']}/{c['seed']}" for c in contract["cases"]]
        self.assertEqual(labels, [f"{case}/{seed}" for case in ("base", "large", "tail") for seed in SEEDS])
        for case in contract["cases"]:
            self.assertTrue(case["passed"], case)
            self.assertEqual(case["status"], "ok")
            self.assertIsNone(case["frozen"])
            self.assertIsInstance(case["seconds"], float)
            self.assertEqual((case["params"]["seed"], case["params"]["case"], case["params"]["category"]),
                             (case["seed"], case["id"], case["category"]))
            [out] = case["outputs"]
            self.assertEqual((out["name"], out["comparator"], out["verdict"]), ("out", "allclose", "pass"))
            stats = out["stats"]
            self.assertEqual(stats["ulp"]["0"], out["elements"])  # the mock computes exactly the golden
            self.assertEqual((stats["max_abs_err"], stats["close_share"], stats["max_ulp"]), (0.0, 1.0, 0))
            self.assertAlmostEqual(stats["cosine"], 1.0, places=12)
        by_label = {f"{c['id']}/{c['seed']}": c for c in contract["cases"]}
        self.assertEqual(by_label["large/7"]["params"]["scale"], 1.0e4)
        self.assertEqual(by_label["tail/7"]["outputs"][0]["shape"], [37, 128])
        self.assertEqual(by_label["base/7"]["params"]["rows"], 64)  # DEFAULT_PARAMS under the case's params
        # One compile per shape: 64 rows serve base and large, 37 rows the tail case.
        self.assertEqual([c["compile"] for c in contract["cases"]],
                         ["compiled"] + ["reused"] * 5 + ["compiled", "reused", "reused"])
        self.assertEqual(contract["compiles"], 2)
        self.assertEqual([c["shapes"][0] for c in self.compiles()], [[64, 128], [37, 128]])
        self.assertEqual((contract["gaming"], contract["guard"]), ([], []))
        self.assertEqual(data["guard_mode"], "host_view")
        self.assertNotIn("failed_case", data)
        self.assertEqual(data["seed"], SEEDS[0])  # the top-level outputs are the first case run's
        self.assertEqual(data["outputs"], contract["cases"][0]["outputs"])
        self.assertIn("[port-check run] contract: 9/9 case runs passed", proc.stderr)

    def test_a_case_failing_only_for_large_values_is_reported_with_its_id_and_figures(self):
        self.port('out[:] = torch.softmax(x.clamp(-30.0, 30.0), dim=-1)')  # saturates only at scale 1e4
        proc, data = self.run_mode(expect_code=1)
        self.assertEqual(data["status"], "ok")
        self.assertFalse(data["passed"])
        self.assertEqual(data["failed_case"], "large/20260301")
        failed = [f"{c['id']}/{c['seed']}" for c in data["contract"]["cases"] if not c["passed"]]
        self.assertEqual(failed, [f"large/{s}" for s in SEEDS])
        self.assertTrue(all(c["status"] == ("ok" if c["passed"] else "mismatch") for c in data["contract"]["cases"]))
        [out] = data["outputs"]  # the first failing case's
        self.assertEqual(data["seed"], 20260301)
        self.assertEqual(out["verdict"], "mismatch")
        self.assertGreater(out["max_abs_err"], 0.1)
        self.assertGreater(out["stats"]["mean_abs_err"], 0)
        self.assertLess(out["stats"]["cosine"], 0.999)
        self.assertLess(out["stats"]["close_share"], 1.0)
        self.assertGreater(out["stats"]["ulp"][">=256"], 0)
        self.assertIn("first failure large/20260301", proc.stderr)
        self.assertIn("large/7 'out' FAIL", proc.stderr)
        # The first failing case run is localised (docs/first-wrong-task.md); the stand-in pypto has no
        # torch_codegen, so the look says it could not tell, and why.
        look = data["localisation"]
        self.assertEqual((look["case"], look["verdict"]), ("large/20260301", "undetermined"))
        self.assertTrue(any("torch_codegen" in n for n in look["notes"]), look["notes"])
        _, quiet = self.run_mode("--no-localise", expect_code=1)
        self.assertNotIn("localisation", quiet)

    def test_no_localise_holds_for_the_first_case_too(self):
        self.port('out[:] = x * 0.5')  # wrong in every case, base first
        _, data = self.run_mode("--no-localise", expect_code=1)
        self.assertNotIn("localisation", data)
        _, data = self.run_mode(expect_code=1)
        self.assertEqual(data["localisation"]["case"], "base/20260301")

    def test_a_case_whose_golden_raises_stops_the_contract_with_that_status(self):
        self.port()
        _, data = self.run_mode(env={"GOLDEN_FAILS_LARGE": "1"}, expect_code=1)
        self.assertEqual((data["status"], data["phase"]), ("golden_error", "golden"))
        self.assertEqual(data["failed_case"], "large/20260301")
        cases = data["contract"]["cases"]
        self.assertEqual([c["status"] for c in cases], ["ok", "ok", "ok", "golden_error"])
        self.assertIn("no reference for large values", cases[-1]["error"])
        self.assertFalse(data["passed"])

    def test_a_golden_whose_params_default_to_none_still_gets_each_cases_params(self):
        # The template's form, generate_inputs(params=None): the run must pass the case's params (seed,
        # scale), not call it bare. Bare calls made every case of every seed the same run, which only a
        # mutant that passed showed (GOLD024 on the real simulator).
        golden = (GOLDEN.replace("@CONTRACT@", CONTRACT)
                  .replace("def generate_inputs(params):", "def generate_inputs(params=None):\n    params = params or dict(ALL_CASES['default'])")
                  .replace("def compute_golden(tensors, params):", "def compute_golden(tensors, params=None):"))
        # A port that ignores its inputs is seen only when the seeds really draw different inputs.
        self.port(body="out[:] = 1.0 / 128", golden=golden)
        _, data = self.run_mode("--case", "base", expect_code=1)
        rules = sorted({f["rule"] for f in data["contract"]["gaming"]})
        self.assertIn("GOLD020", rules, data["contract"]["gaming"])

    # ---- comparators and figures

    def test_pass_rate_passes_above_its_share_and_fails_below(self):
        body = GOOD + '\n    out[0, :4] = 0.5'  # 4 wrong elements in 8192: close share 0.99951
        self.port(body, contract=CONTRACT.replace('"cases"', '"compare": {"out": {"rtol": 1e-5, "atol": 1e-6, '
                                                  '"pass_rate": 0.999}},\n    "cases"'))
        _, data = self.run_mode("--case", "base", expect_code=0)
        for case in data["contract"]["cases"]:
            [out] = case["outputs"]
            self.assertEqual((out["comparator"], out["pass_rate"], out["comparator_source"]),
                             ("pass_rate", 0.999, "CONTRACT"))
            self.assertEqual(out["mismatches"], 4)
            self.assertAlmostEqual(out["close_share"], 1 - 4 / 8192)
            self.assertTrue(out["passed"])
            self.assertEqual(out["verdict"], "pass")
        self.port(body, contract=CONTRACT.replace('"cases"', '"compare": {"out": {"pass_rate": 0.9999}},\n    "cases"'))
        _, data = self.run_mode("--case", "base", expect_code=1)
        [out] = data["outputs"]
        self.assertEqual((out["verdict"], out["passed"], out["pass_rate"]), ("mismatch", False, 0.9999))
        self.assertEqual((out["rtol"], out["atol"]), (1e-5, 1e-6))  # RTOL / ATOL where the comparator has none
        self.assertEqual(data["failed_case"], "base/20260301")

    def test_max_steps_bounds_integer_differences_per_step(self):
        self.quant_port("q[0, :3] += 1")  # 3 elements one step off
        _, data = self.run_mode(expect_code=0)
        self.assertEqual(data["contract"]["seeds"], [0, 1, 2])  # "seeds": 3 without SEED
        [out] = data["outputs"]
        self.assertEqual((out["comparator"], out["dtype"], out["passed"]), ("max_steps", "int8", True))
        self.assertEqual(out["step_counts"], {"1": 3, ">1": 0})
        self.assertEqual((out["max_steps"], out["max_step"], out["mismatches"]), ({"1": 4}, 1, 3))
        self.assertIsNone(out["stats"]["ulp"])  # no ULPs for integers
        self.quant_port("q[0, :3] += 1", compare='{"max_steps": {"1": 2}}')
        _, data = self.run_mode(expect_code=1)
        self.assertEqual((data["outputs"][0]["verdict"], data["failed_case"]), ("mismatch", "base/0"))
        self.quant_port("q[0, :3] += 1\n    q[1, 0] += 2", compare='{"max_steps": {"1": 4}}')
        _, data = self.run_mode(expect_code=1)
        [out] = data["outputs"]
        self.assertEqual((out["step_counts"][">1"], out["max_step"], out["passed"]), (1, 2, False))

    def test_max_steps_on_a_floating_output_is_a_contract_error(self):
        self.port(contract=CONTRACT.replace('"cases"', '"compare": {"out": {"max_steps": {"1": 1}}},\n    "cases"'))
        _, data = self.run_mode("--case", "base", expect_code=1)
        self.assertEqual(data["status"], "contract_error")
        self.assertIn("max_steps", data["exception_message"])
        self.assertIn("float32", data["exception_message"])

    def test_the_ulp_histogram_counts_known_distances(self):
        body = GOOD + ('\n    bits = out.view(torch.int32)\n    bits[0, 0] += 1\n    bits[0, 1] += 3'
                       '\n    bits[0, 2] += 100\n    bits[0, 3] += 1000')
        self.port(body, contract=CONTRACT.replace('"cases"', '"compare": {"out": {"rtol": 1e-3, "atol": 0}},\n    "cases"'))
        _, data = self.run_mode("--case", "base/7", expect_code=0)
        [case] = data["contract"]["cases"]
        self.assertEqual(f"{case['id']}/{case['seed']}", "base/7")
        stats = case["outputs"][0]["stats"]
        self.assertEqual(stats["ulp"], {"0": 64 * 128 - 4, "1": 1, "2-3": 1, "4-15": 0, "16-255": 1, ">=256": 1})
        self.assertEqual(stats["max_ulp"], 1000)
        self.assertGreater(stats["max_rel_err"], 1000 * 2.0 ** -24)
        self.assertLess(stats["max_rel_err"], 1e-3)
        self.assertEqual(case["outputs"][0]["tolerance_source"], "golden.py")

    # ---- checks against gamed goldens

    def gaming(self, body):
        self.port(body)
        _, data = self.run_mode("--case", "base", expect_code=1)
        return data, {f["rule"]: f for f in data["contract"]["gaming"]}

    def test_gold020_an_output_that_ignores_its_inputs(self):
        data, found = self.gaming('out[:] = torch.softmax(torch.arange(x.shape[-1], dtype=x.dtype).expand_as(x) '
                                  '* 0.01, dim=-1)')
        self.assertEqual(sorted(found), ["GOLD020"])
        self.assertEqual(found["GOLD020"]["output"], "out")
        self.assertEqual(found["GOLD020"]["cases"], [f"base/{s}" for s in SEEDS])
        self.assertIsNone(found["GOLD020"]["input"])
        self.assertFalse(data["passed"])

    def test_gold021_an_output_that_copies_an_input(self):
        _, found = self.gaming('out[:] = x')
        self.assertEqual(sorted(found), ["GOLD021"])
        self.assertEqual((found["GOLD021"]["output"], found["GOLD021"]["input"]), ("out", "x"))
        self.assertEqual(len(found["GOLD021"]["cases"]), 3)

    def test_gold022_an_output_of_one_value(self):
        _, found = self.gaming('out[:] = 1.0 / x.shape[-1]')
        self.assertIn("GOLD022", found)
        self.assertIn("0.0078125", found["GOLD022"]["detail"])
        self.assertEqual(found["GOLD022"]["cases"], [f"base/{s}" for s in SEEDS])

    def test_an_output_never_written_is_left_to_gold002(self):
        _, found = self.gaming('pass')
        self.assertEqual(found, {})

    def test_gold023_a_kernel_writing_past_its_output(self):
        self.port()
        proc, data = self.run_mode("--case", "base", run="overrun", expect_code=1)
        self.assertEqual(data["status"], "ok")
        self.assertTrue(all(c["passed"] for c in data["contract"]["cases"]))  # the values are right ...
        self.assertFalse(data["passed"])  # ... but the bytes after the output changed
        self.assertEqual(data["contract"]["guard"], [{"tensor": "out", "side": "after", "bytes_changed": 12,
                                                      "first_offset": 0, "cases": [f"base/{s}" for s in SEEDS]}])
        self.assertEqual(data["guard_mode"], "host_view")
        self.assertIn("GOLD023", proc.stderr)
        _, data = self.run_mode("--case", "base/7", run="underrun", env={"MOCK_OVERRUN_ELEMS": "2"}, expect_code=1)
        self.assertEqual(data["contract"]["guard"], [{"tensor": "out", "side": "before", "bytes_changed": 8,
                                                      "first_offset": 0, "cases": ["base/7"]}])
        proc, data = self.run_mode("--case", "base/7", "--no-guard", run="overrun", expect_code=0)
        self.assertEqual((data["guard_mode"], data["contract"]["guard"]), ("off", []))
        self.assertIn("no room outside the tensor", proc.stdout + proc.stderr)

    def test_a_block_draws_each_cases_inputs_from_build_tensor_specs_params(self):
        path = self.write("pypto-lib/double_block/double_block.py", BLOCK)
        out = os.path.join(self.root, "out")
        result = os.path.join(self.root, "result.json")
        env = dict(os.environ, PYTHONPATH=MOCK, NO_COLOR="1", MOCK_PTOAS="/usr/bin/true")
        env.pop("MOCK_RUN", None)
        proc = subprocess.run([sys.executable, "-B", ADAPTER, "--program-file", path, "--platform", "a2a3",
                               "--out-dir", out, "--result", result, "--mode", "run"],
                              env=env, capture_output=True, text=True, timeout=240)
        with open(result) as f:
            data = json.load(f)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        self.assertEqual((data["status"], data["inputs_source"], data["golden_function"]),
                         ("ok", "build_tensor_specs", "golden_double_block"))
        self.assertTrue(data["passed"])
        cases = data["contract"]["cases"]
        self.assertEqual([f"{c['id']}/{c['seed']}" for c in cases],
                         [f"{case}/{seed}" for case in ("base", "large") for seed in (1, 2, 3)])
        self.assertTrue(all(c["passed"] for c in cases))
        self.assertEqual(data["contract"]["gaming"], [])  # each seed its own inputs and outputs: no GOLD020

    # ---- frozen goldens

    def test_frozen_goldens_are_saved_then_replayed_and_a_corrupt_file_is_recomputed(self):
        self.port()
        self.write("original/model.py", "def softmax(x):\n    return x\n")
        frozen = os.path.join(self.root, "frozen")
        _, data = self.run_mode("--case", "base", "--frozen-dir", frozen, expect_code=0)
        cases = data["contract"]["cases"]
        self.assertEqual([c["frozen"] for c in cases], ["saved"] * 3)
        paths = [c["frozen_path"] for c in cases]
        self.assertEqual(sorted(paths), sorted(os.listdir(frozen)))
        self.assertEqual(len(set(paths)), 3)  # one key per seed
        # Replayed: the golden function is not called again (it would raise now).
        _, data = self.run_mode("--case", "base", "--frozen-dir", frozen, env={"GOLDEN_MUST_NOT_RUN": "1"},
                                expect_code=0)
        self.assertEqual([c["frozen"] for c in data["contract"]["cases"]], ["replayed"] * 3)
        self.assertEqual([c["frozen_path"] for c in data["contract"]["cases"]], paths)
        self.assertTrue(data["passed"])
        # A corrupt file is a miss: computed again (and saved again), with a note; never a wrong result.
        with open(os.path.join(frozen, paths[1]), "wb") as f:
            f.write(b"not a torch file")
        _, data = self.run_mode("--case", "base", "--frozen-dir", frozen, expect_code=0)
        cases = data["contract"]["cases"]
        self.assertEqual([c["frozen"] for c in cases], ["replayed", "saved", "replayed"])
        self.assertIn("unreadable", cases[1]["frozen_note"])
        self.assertTrue(cases[1]["passed"])
        _, data = self.run_mode("--case", "base", "--frozen-dir", frozen, env={"GOLDEN_MUST_NOT_RUN": "1"},
                                expect_code=0)
        self.assertEqual([c["frozen"] for c in data["contract"]["cases"]], ["replayed"] * 3)
        # The key covers the original's sources and golden.py: a change makes new files.
        self.write("original/model.py", "def softmax(x):\n    return x * 1\n")
        _, data = self.run_mode("--case", "base/7", "--frozen-dir", frozen, expect_code=0)
        self.assertEqual(data["contract"]["cases"][0]["frozen"], "saved")
        self.assertNotIn(data["contract"]["cases"][0]["frozen_path"], paths)
        with open(os.path.join(self.root, "pypto_src", "golden.py"), "a") as f:
            f.write("# changed\n")
        _, data = self.run_mode("--case", "base/7", "--frozen-dir", frozen, expect_code=0)
        self.assertEqual(data["contract"]["cases"][0]["frozen"], "saved")
        self.assertEqual(len(os.listdir(frozen)), 5)

    def test_a_frozen_golden_made_by_other_adapter_code_is_not_replayed(self):
        # How the adapter calls generate_inputs is part of what was frozen: the same golden.py under an
        # adapter whose calling code changed makes a new frozen file instead of replaying the old one.
        import shutil  # noqa: PLC0415

        self.port()
        frozen = os.path.join(self.root, "frozen")
        _, data = self.run_mode("--case", "base/7", "--frozen-dir", frozen, expect_code=0)
        first = data["contract"]["cases"][0]["frozen_path"]
        other = os.path.join(self.root, "adapter")
        shutil.copytree(ADAPTER_DIR, other, ignore=shutil.ignore_patterns("__pycache__"))
        with open(os.path.join(other, "port_check_golden.py"), "a") as f:
            f.write("\n# another version of the calling code\n")
        result = os.path.join(self.root, "result.json")
        subprocess.run([sys.executable, "-B", os.path.join(other, "port_check_adapter.py"), "--project",
                        os.path.join(self.root, "pypto_src"), "--platform", "a2a3", "--out-dir",
                        os.path.join(self.root, "out"), "--result", result, "--mode", "run", "--case", "base/7",
                        "--frozen-dir", frozen],
                       env=dict(os.environ, PYTHONPATH=MOCK, MOCK_PTOAS="/usr/bin/true"), capture_output=True,
                       text=True, timeout=240)
        with open(result) as f:
            case = json.load(f)["contract"]["cases"][0]
        self.assertEqual(case["frozen"], "saved")
        self.assertNotEqual(case["frozen_path"], first)

    def test_a_frozen_golden_decides_the_expected_values(self):
        self.port()
        frozen = os.path.join(self.root, "frozen")
        _, data = self.run_mode("--case", "base/7", "--frozen-dir", frozen, expect_code=0)
        path = os.path.join(frozen, data["contract"]["cases"][0]["frozen_path"])
        saved = torch.load(path)
        self.assertEqual([n for n, _ in saved["inputs"]], ["x", "out"])
        self.assertEqual(saved["seed"], 7)
        saved["expected"]["out"] = saved["expected"]["out"] * 2
        torch.save(saved, path)
        _, data = self.run_mode("--case", "base/7", "--frozen-dir", frozen, expect_code=1)
        [out] = data["outputs"]
        self.assertEqual(data["contract"]["cases"][0]["frozen"], "replayed")
        self.assertAlmostEqual(out["max_rel_err"], 0.5, places=6)

    # ---- options and contract errors

    def test_case_picks_one_case_or_one_run(self):
        self.port()
        _, data = self.run_mode("--case", "large", expect_code=0)
        self.assertEqual([(c["id"], c["seed"]) for c in data["contract"]["cases"]], [("large", s) for s in SEEDS])
        self.assertEqual(data["contract"]["case_filter"], "large")
        _, data = self.run_mode("--case", "tail/1234", expect_code=0)
        self.assertEqual([(c["id"], c["seed"]) for c in data["contract"]["cases"]], [("tail", 1234)])
        self.assertEqual(data["outputs"][0]["shape"], [37, 128])
        for pick, text in (("nope", "'nope'"), ("base/8", "'8' is not one of")):
            _, data = self.run_mode("--case", pick, expect_code=1)
            self.assertEqual(data["status"], "contract_error", pick)
            self.assertIn(text, data["exception_message"], pick)

    def test_no_contract_runs_once_as_before(self):
        self.port('out[:] = torch.softmax(x.clamp(-30.0, 30.0), dim=-1)')  # would fail the large case
        _, data = self.run_mode("--no-contract", expect_code=0)
        self.assertEqual((data["status"], data["seed"]), ("ok", 0))
        self.assertTrue(data["contract"]["declared"])
        self.assertEqual(data["contract"]["cases"], [])
        self.assertEqual(data["guard_mode"], "off")
        [out] = data["outputs"]
        self.assertEqual((out["shape"], out["verdict"]), ([64, 128], "pass"))
        self.assertEqual(len(self.compiles()), 1)
        _, data = self.run_mode("--no-contract", "--case", "base", expect_code=1)
        self.assertEqual(data["status"], "contract_error")
        self.assertIn("--no-contract", data["exception_message"])

    def test_a_golden_without_contract_runs_once_as_before(self):
        golden = GOLDEN.replace("CONTRACT = @CONTRACT@", "")
        self.port(golden=golden)
        _, data = self.run_mode(run="overrun", expect_code=0)  # no guard zones without a contract
        self.assertEqual((data["status"], data["phase"], data["seed"]), ("ok", "done", 0))
        self.assertTrue(data["passed"])
        self.assertEqual(data["contract"], {"declared": False, "kind": None, "seeds": [], "cases": [],
                                            "gaming": [], "guard": []})
        self.assertEqual(data["guard_mode"], "off")
        [out] = data["outputs"]
        for key in ("name", "verdict", "passed", "dtype", "shape", "expected_shape", "elements", "mismatches",
                    "mismatch_share", "max_abs_err", "max_rel_err", "nan_actual", "inf_actual", "never_written",
                    "rtol", "atol", "tolerance_source"):
            self.assertIn(key, out)
        self.assertEqual((out["elements"], out["mismatches"], out["tolerance_source"]), (64 * 128, 0, "golden.py"))
        self.assertEqual(data["golden_function"], "compute_golden")
        self.assertEqual(len(self.compiles()), 1)
        self.assertNotIn("failed_case", data)
        _, data = self.run_mode("--case", "base", expect_code=1)
        self.assertEqual(data["status"], "contract_error")
        self.assertIn("golden.py has none", data["exception_message"])

    def test_an_invalid_contract_is_a_contract_error_naming_the_key(self):
        base = '"base": {"category": "base"}'
        for contract, text in (
                ('[1, 2, 3]', "CONTRACT must be a dict"),
                ('{"kind": "softmax", "seed": [1, 2, 3], "seeds": [1, 2, 3], "cases": {%s}}' % base, "'seed'"),
                ('{"kind": "softmaxx", "seeds": [1, 2, 3], "cases": {%s}}' % base, "CONTRACT['kind']"),
                ('{"kind": "softmax", "seeds": [1, 2], "cases": {%s}}' % base, "CONTRACT['seeds']"),
                ('{"kind": "softmax", "seeds": [1, 1, 2], "cases": {%s}}' % base, "repeats"),
                ('{"kind": "softmax", "seeds": [1, 2, 3], "cases": {"big": {"category": "huge"}}}',
                 "CONTRACT['cases']['big']['category']"),
                ('{"kind": "softmax", "seeds": [1, 2, 3], "cases": {"big": {"category": "large"}}}', "'base'"),
                ('{"kind": "softmax", "seeds": [1, 2, 3]}', "lacks 'cases'"),
                ('{"kind": "softmax", "seeds": [1, 2, 3], "cases": {%s, "x": {"category": "large", "params": '
                 '{"seed": 1}}}}' % base, "CONTRACT['cases']['x']['params']"),
                ('{"kind": "softmax", "seeds": [1, 2, 3], "cases": {%s}, "compare": {"y": {"rtol": 0.1}}}' % base,
                 "CONTRACT['compare']['y']"),
                ('{"kind": "softmax", "seeds": [1, 2, 3], "cases": {%s}, "compare": {"out": {"pass_rate": 1.5}}}'
                 % base, "CONTRACT['compare']['out']['pass_rate']"),
                ('{"kind": "softmax", "seeds": [1, 2, 3], "cases": {%s}, "compare": {"out": {"max_steps": '
                 '{"0": 1}}}}' % base, "CONTRACT['compare']['out']['max_steps']['0']"),
                ('{"kind": "softmax", "seeds": [1, 2, 3], "cases": {%s}, "masked": "yes"}' % base,
                 "CONTRACT['masked']")):
            self.port(contract=contract)
            proc, data = self.run_mode()
            self.assertEqual((data["status"], proc.returncode), ("contract_error", 1), contract)
            self.assertIn(text, data["exception_message"], contract)
            self.assertNotIn("outputs", data, contract)
            if "'compare']['y']" not in text:  # known before any case runs (an output's name: once inputs exist)
                self.assertEqual(data["contract"]["cases"], [], contract)

    def chained(self, *extra):
        """The compile mode with the run chained to it, as port-check run starts it; the compile leaves a
        folder the run can load (MOCK_COMPILED_META), compiled for the default params' shapes."""
        env = dict(os.environ, PYTHONPATH=MOCK, NO_COLOR="1", MOCK_PTOAS="/usr/bin/true", MOCK_COMPILED_META="1",
                   MOCK_COMPILE_LOG=os.path.join(self.root, "compiles.jsonl"))
        env.pop("MOCK_RUN", None)
        run_json = os.path.join(self.root, "run.json")
        proc = subprocess.run([sys.executable, "-B", ADAPTER, "--project", os.path.join(self.root, "pypto_src"),
                               "--platform", "a2a3", "--out-dir", os.path.join(self.root, "out"),
                               "--result", os.path.join(self.root, "compile.json"), *extra,
                               "--then-run-out-dir", os.path.join(self.root, "run_out"),
                               "--then-run-result", run_json],
                              env=env, capture_output=True, text=True, timeout=240)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        with open(run_json) as f:
            return json.load(f)

    def test_a_run_chained_to_the_compile_takes_its_program_for_its_shapes_only(self):
        self.port()
        data = self.chained()
        self.assertEqual((data["status"], data["mode"]), ("ok", "run"))
        self.assertTrue(data["passed"])
        self.assertEqual(data["reused_compile"], os.path.join(self.root, "out"))
        # 64 rows: the compile stage's program; the tail case's 37 rows need a compile of their own (the
        # mock's program refuses other shapes, as a specialised one does).
        self.assertEqual([c["compile"] for c in data["contract"]["cases"]],
                         ["compile_stage"] + ["reused"] * 5 + ["compiled", "reused", "reused"])
        self.assertEqual(data["contract"]["compiles"], 1)
        log = self.compiles()
        self.assertEqual([c["shapes"][0] for c in log], [[64, 128], [37, 128]])
        self.assertEqual(log[1]["out"], os.path.join(self.root, "run_out", "shape-1"))

    def test_a_chained_run_picks_its_case_too(self):
        self.port()
        data = self.chained("--case", "tail")
        self.assertEqual([(c["id"], c["compile"]) for c in data["contract"]["cases"]],
                         [("tail", "compiled"), ("tail", "reused"), ("tail", "reused")])
        self.port(golden=GOLDEN.replace("CONTRACT = @CONTRACT@", ""))  # one run: the compile stage's program
        data = self.chained()
        self.assertEqual((data["status"], data["passed"], data["contract"]["declared"]), ("ok", True, False))
        self.assertEqual(len(self.compiles()), 3)  # the two compile stages and the tail case's; no other


@unittest.skipUnless(HAVE_TORCH, "torch is not installed for this interpreter")
class CompareUnitTest(unittest.TestCase):
    """port_check_compare and port_check_contract called directly: ULPs in each float dtype, max_steps
    with a step the contract does not list, and the seeds of an integer "seeds"."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, ADAPTER_DIR)
        sys.dont_write_bytecode = True  # no __pycache__ in the source tree (CMake embeds harness/adapter/)
        import port_check_compare
        import port_check_contract

        cls.compare, cls.contract = port_check_compare, port_check_contract

    def test_ulp_distance_in_bf16_fp16_and_fp32(self):
        for dtype, step in ((torch.bfloat16, 2.0 ** -7), (torch.float16, 2.0 ** -10), (torch.float32, 2.0 ** -23)):
            tiny = torch.finfo(dtype).tiny * step  # the smallest subnormal
            actual = torch.tensor([1.0 + step, -0.0, tiny, -tiny, 1.0 + 5 * step, float("nan"), 2.0], dtype=dtype)
            expected = torch.tensor([1.0, 0.0, -tiny, tiny, 1.0, 1.0, 1.0], dtype=dtype)
            distance, valid = self.compare.ulp_distance(actual, expected, torch)
            self.assertEqual(distance[valid].tolist(), [1, 0, 2, 2, 5, 1 / step], dtype)
            histogram, largest = self.compare.ulp_histogram(actual, expected, torch)
            self.assertEqual(histogram, {"0": 1, "1": 1, "2-3": 2, "4-15": 1, "16-255": 1 if step > 2 ** -8 else 0,
                                         ">=256": 0 if step > 2 ** -8 else 1}, dtype)
            self.assertEqual(largest, int(1 / step))
        self.assertIsNone(self.compare.ulp_distance(torch.zeros(2, dtype=torch.int32), torch.zeros(2), torch))

    def test_the_expected_tensor_is_measured_in_the_outputs_dtype(self):
        expected = torch.tensor([1.0 + 2.0 ** -9], dtype=torch.float32)  # between two bf16 values
        actual = torch.tensor([1.0], dtype=torch.bfloat16)
        histogram, _ = self.compare.ulp_histogram(actual, expected, torch)
        self.assertEqual(histogram["0"], 1)

    def test_max_steps_allows_no_unlisted_step_below_its_largest_key(self):
        spec = self.contract.parse_comparator("q", {"max_steps": {"1": 5, "3": 5}})
        want = torch.zeros(8, dtype=torch.int8)
        got = want.clone()
        got[0] = 3
        got[1] = -1
        self.assertTrue(self.compare.compare_with("q", got, want, spec, torch)["passed"])
        got[2] = 2
        entry = self.compare.compare_with("q", got, want, spec, torch)
        self.assertFalse(entry["passed"])
        self.assertEqual(entry["step_counts"], {"1": 1, "2": 1, "3": 1, ">3": 0})

    def test_integer_seeds_start_at_seed(self):
        raw = {"kind": "other", "seeds": 4, "cases": {"b": {"category": "base"}}}
        self.assertEqual(self.contract.parse_contract(raw, 100).seeds, [100, 101, 102, 103])
        self.assertEqual(self.contract.parse_contract(raw).seeds, [0, 1, 2, 3])
        with self.assertRaisesRegex(self.contract.RunContractError, r"CONTRACT\['seeds'\]"):
            self.contract.parse_contract(dict(raw, seeds=2))

    def test_statistics_stay_json_safe_with_nan_and_inf(self):
        actual = torch.tensor([float("nan"), float("inf"), 1.0])
        expected = torch.tensor([1.0, float("inf"), 1.0])
        spec = {"comparator": "allclose", "rtol": 0.0, "atol": 0.0}
        entry = self.compare.compare_with("out", actual, expected, spec, torch)
        text = json.dumps(entry, allow_nan=False)  # raises on NaN / infinity
        self.assertIn('"cosine": 1.0', text)
        self.assertEqual(entry["stats"]["ulp"], {"0": 2, "1": 0, "2-3": 0, "4-15": 0, "16-255": 0, ">=256": 0})


if __name__ == "__main__":
    unittest.main()
