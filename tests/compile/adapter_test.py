"""The compile adapter (harness/adapter/port_check_adapter.py) against a stand-in pypto package
(tests/fixtures/compile/mock-pypto): program discovery, ENTRY, tensor specs, program files in
pypto-lib's convention, and that every failure ends in a result file."""
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
MOCK = os.path.join(SOURCE, "tests", "fixtures", "compile", "mock-pypto", "python")

try:
    import torch  # noqa: F401

    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False

ORCH = '''
import pypto.language as pl

@pl.jit.incore
def helper(a):
    pass

@pl.jit
def entry(x, z, y):
    pass
'''


class AdapterTest(unittest.TestCase):
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

    def run_adapter(self, *where, env=None, platform="a2a3"):
        out = os.path.join(self.root, "out")
        result = os.path.join(self.root, "result.json")
        environment = dict(os.environ, PYTHONPATH=MOCK, NO_COLOR="1")
        environment.update(env or {})
        proc = subprocess.run([sys.executable, "-B", ADAPTER, *where, "--platform", platform, "--out-dir", out,
                               "--result", result], env=environment, capture_output=True, text=True, timeout=120)
        with open(result) as f:
            data = json.load(f)
        mock = os.path.join(out, "mock_compile.json")
        compiled = json.load(open(mock)) if os.path.exists(mock) else None
        return proc, data, compiled

    def project(self):
        return ["--project", os.path.join(self.root, "pypto_src")]

    def test_single_jit_entry_compiles_from_its_signature(self):
        self.write("pypto_src/orch.py", ORCH)
        proc, data, compiled = self.run_adapter(*self.project())
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(data["status"], "ok")
        self.assertEqual(data["program"], "entry")
        self.assertEqual(data["kind"], "jit")
        self.assertEqual(data["specs_source"], "signature")
        self.assertEqual(data["ptoas"], "skipped")
        self.assertEqual(compiled["platform"], "a2a3sim")
        self.assertTrue(compiled["dump_passes"])
        self.assertFalse(os.path.exists(os.path.join(self.root, "pypto_src", "__pycache__")))

    def test_a5_compiles_for_a5sim(self):
        self.write("pypto_src/orch.py", ORCH)
        _, data, compiled = self.run_adapter(*self.project(), platform="a5")
        self.assertEqual(compiled["platform"], "a5sim")

    def test_program_class_uses_ir_compile_and_skips_ptoas_when_absent(self):
        self.write("pypto_src/prog.py", """
            import pypto.language as pl
            @pl.program
            class TinyGemm:
                pass
        """)
        _, data, compiled = self.run_adapter(*self.project())
        self.assertEqual(data["status"], "ok")
        self.assertEqual(data["kind"], "program")
        self.assertEqual(compiled["program"], "TinyGemm")
        self.assertTrue(compiled["skip_ptoas"])

    def test_two_entries_need_entry_in_golden(self):
        self.write("pypto_src/a.py", ORCH)
        self.write("pypto_src/b.py", ORCH)
        proc, data, _ = self.run_adapter(*self.project())
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(data["status"], "ambiguous_program")
        self.assertEqual(data["candidates"], "a.entry, b.entry")
        self.write("pypto_src/golden.py", 'ENTRY = "b.entry"\n')
        _, data, _ = self.run_adapter(*self.project())
        self.assertEqual(data["status"], "ok")
        self.write("pypto_src/golden.py", 'ENTRY = "nope"\n')
        _, data, _ = self.run_adapter(*self.project())
        self.assertEqual(data["status"], "no_program")
        self.assertIn("ENTRY names 'nope'", data["exception_message"])

    def test_no_program_is_reported(self):
        self.write("pypto_src/golden.py", "X = 1\n")
        proc, data, _ = self.run_adapter(*self.project())
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(data["status"], "no_program")

    def test_import_errors_and_system_exit_end_in_a_result(self):
        self.write("pypto_src/golden.py", "import does_not_exist\n")
        _, data, _ = self.run_adapter(*self.project())
        self.assertEqual(data["status"], "load_error")
        self.assertEqual(data["exception_type"], "ModuleNotFoundError")
        self.assertIn("golden.py", data["traceback"])
        self.write("pypto_src/golden.py", "import sys\nsys.exit(4)\n")
        _, data, _ = self.run_adapter(*self.project())
        self.assertEqual(data["status"], "load_error")
        self.assertEqual(data["exception_type"], "SystemExit")
        self.assertEqual(data["exit_code"], "4")

    def test_compiler_errors_are_captured_with_their_type(self):
        self.write("pypto_src/orch.py", ORCH)
        proc, data, _ = self.run_adapter(*self.project(), env={"MOCK_FAIL": "oom"})
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(data["status"], "compile_error")
        self.assertEqual(data["exception_type"], "ValueError")
        self.assertIn("exceeds platform limit", data["exception_message"])
        self.assertIn("ValueError: Vec buffer usage", proc.stderr, "the traceback is in the log too")

    def test_parser_errors_are_rendered_like_the_excepthook_and_kept_as_fields(self):
        self.write("pypto_src/orch.py", ORCH)
        proc, data, _ = self.run_adapter(*self.project(), env={"MOCK_FAIL": "parser"})
        self.assertEqual(data["status"], "compile_error")
        self.assertEqual(data["error_kind"], "parser")
        self.assertEqual(data["parser_line"], "15")
        self.assertEqual(data["parser_column"], "9")
        self.assertTrue(data["parser_file"].endswith("orch.py"))
        self.assertIn("Check if the variable", data["parser_hint"])
        self.assertIn("Error: Undefined variable 'scale_tile'", proc.stderr)
        self.assertIn("note: run with `PTO_BACKTRACE=1`", proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)

    def test_a_broken_toolchain_is_a_toolchain_error(self):
        self.write("pypto_src/orch.py", ORCH)
        out = os.path.join(self.root, "out")
        result = os.path.join(self.root, "result.json")
        env = dict(os.environ, PYTHONPATH=os.path.join(self.root, "nothing"))
        subprocess.run([sys.executable, "-B", ADAPTER, "--project", os.path.join(self.root, "pypto_src"),
                        "--platform", "a2a3", "--out-dir", out, "--result", result], env=env, capture_output=True)
        data = json.load(open(result))
        self.assertEqual(data["status"], "toolchain_error")
        self.assertEqual(data["phase"], "import_pypto")

    @unittest.skipUnless(HAVE_TORCH, "torch is not importable by this interpreter")
    def test_specs_are_ordered_by_parameter_name_and_dtypes_resolved(self):
        self.write("pypto_src/orch.py", ORCH)
        self.write("pypto_src/golden.py", """
            import torch
            def build_tensor_specs():
                return [("y", [64, 128], torch.float32), ("x", [32, 16], "fp16"), {"name": "z", "shape": [8], "dtype": "pl.FP32"}]
        """)
        _, data, compiled = self.run_adapter(*self.project())
        self.assertEqual(data["status"], "ok", data)
        self.assertEqual(data["specs_source"], "build_tensor_specs")
        self.assertEqual([a["shape"] for a in compiled["args"]], [[32, 16], [8], [64, 128]])
        self.assertEqual([a["dtype"] for a in compiled["args"]], ["torch.float16", "torch.float32", "torch.float32"])

    @unittest.skipUnless(HAVE_TORCH, "torch is not importable by this interpreter")
    def test_wrong_spec_count_is_a_spec_error(self):
        self.write("pypto_src/orch.py", ORCH)
        self.write("pypto_src/golden.py", """
            import torch
            def generate_inputs(params):
                return [("a", torch.zeros(4))]
        """)
        _, data, _ = self.run_adapter(*self.project())
        self.assertEqual(data["status"], "spec_error")
        self.assertIn("takes 3 (x, z, y)", data["exception_message"])

    @unittest.skipUnless(HAVE_TORCH, "torch is not importable by this interpreter")
    def test_pypto_lib_program_file_with_the_golden_stand_in(self):
        path = self.write("lib/softmax.py", """
            import pypto.language as pl
            @pl.jit
            def softmax(x, y):
                pass
            def build_tensor_specs(rows: int = 4, cols: int = 8):
                import torch
                from golden import TensorSpec
                return [TensorSpec("x", [rows, cols], torch.float32, init_value=torch.randn),
                        TensorSpec("y", [rows, cols], torch.float32, is_output=True)]
            if __name__ == "__main__":
                raise SystemExit(1)
        """)
        _, data, compiled = self.run_adapter("--program-file", path)
        self.assertEqual(data["status"], "ok", data)
        self.assertEqual(data["program"], "softmax")
        self.assertEqual([a["shape"] for a in compiled["args"]], [[4, 8], [4, 8]])


if __name__ == "__main__":
    unittest.main()
