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


class AdapterCase(unittest.TestCase):
    """Runs the adapter against the mock in a temporary tree."""

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
        compiled = None
        if os.path.exists(mock):
            with open(mock) as f:
                compiled = json.load(f)
        return proc, data, compiled

    def compiled_in(self, folder):
        with open(os.path.join(self.root, "out", folder, "mock_compile.json")) as f:
            return json.load(f)

    def programs(self, data):
        """The result's programs field as [(name, folder relative to the output folder)]."""
        out = os.path.join(self.root, "out")
        return [(name, os.path.relpath(folder, out)) for name, folder in
                (line.split("\t") for line in data.get("programs", "").splitlines())]

    def project(self):
        return ["--project", os.path.join(self.root, "pypto_src")]


class AdapterTest(AdapterCase):
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


# A stand-in for pypto-lib's golden harness, found through the caller's PYTHONPATH: run_jit compiles
# the entry on the specs' shapes and, unless compile_only, dispatches (which fails without a simulator).
FAKE_GOLDEN = '''
from pypto.runtime import RunConfig


class TensorSpec:
    def __init__(self, name, shape, dtype, init_value=None, is_output=False):
        self.name, self.shape, self.dtype, self.is_output = name, shape, dtype, is_output


class RunResult:
    def __init__(self, passed):
        self.passed = passed


def run_jit(fn, specs, golden_fn=None, compile_cfg=None, runtime_cfg=None, compile_only=False, runtime_dir=None):
    compiled = fn.compile(*specs, config=RunConfig(platform=(runtime_cfg or {}).get("platform", "a2a3sim")))
    if not compile_only:
        compiled(*specs)
    return RunResult(True)
'''

# Two programs that the file's __main__ compiles through the harness with argparse `-p` (required),
# build_tensor_specs taking the shapes as arguments, and a third program __main__ never compiles.
TWO_PROGRAMS = '''
import argparse
import sys

import pypto.language as pl
from golden import TensorSpec, run_jit


@pl.jit
def add_rows(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    pass


@pl.jit
def scale_rows(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    pass


@pl.jit
def unused(x: pl.Tensor):
    pass


def build_tensor_specs(rows, cols):
    return [TensorSpec("x", [rows, cols], "float32"), TensorSpec("y", [rows, cols], "float32", is_output=True)]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", required=True, choices=["a2a3sim", "a5sim"])
    args = parser.parse_args()
    for fn, rows in ((add_rows, 8), (scale_rows, 16)):
        result = run_jit(fn, build_tensor_specs(rows, 32), runtime_cfg={"platform": args.platform})
        if not result.passed:
            sys.exit(1)
    with open("written_by_main.txt", "w") as f:
        f.write("main ran here")
'''


class FollowMainTest(AdapterCase):
    """Program files are compiled the way their own __main__ compiles them (docs/compile-adapter.md §1)."""

    def sample(self):
        return "class Sample:\n    def __init__(self, *shape):\n        self.shape, self.dtype = list(shape), 'float32'\n"

    def lib(self):
        self.write("lib/golden/__init__.py", FAKE_GOLDEN)
        return {"PYTHONPATH": MOCK + os.pathsep + os.path.join(self.root, "lib")}

    def test_bare_tensor_entry_is_specialised_by_the_call_in_main(self):
        path = self.write("examples/hello.py", """
            import pypto.language as pl
            from pypto.runtime import RunConfig
            """ + textwrap.indent(self.sample(), "            ").lstrip() + """
            @pl.jit
            def tile_add(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
                pass

            def check(c):
                raise AssertionError("c was never computed")

            if __name__ == "__main__":
                a, b, c = Sample(128, 64), Sample(128, 64), Sample(128, 64)
                tile_add(a, b, c, config=RunConfig(memory_planner="PTOAS"))
                assert c.shape == [0], "the block's own asserts are left out, as under python -O"
                check(c)
        """)
        proc, data, _ = self.run_adapter("--program-file", path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(data["status"], "ok", data)
        self.assertEqual(data["specs_source"], "__main__")
        self.assertEqual(self.programs(data), [("tile_add", "tile_add")])
        self.assertEqual(data["program"], "tile_add")
        self.assertTrue(data["output_dir"].endswith(os.path.join("out", "tile_add")))
        compiled = self.compiled_in("tile_add")
        self.assertEqual([a["shape"] for a in compiled["args"]], [[128, 64]] * 3)
        self.assertEqual(compiled["platform"], "a2a3sim")
        self.assertTrue(compiled["dump_passes"])
        self.assertEqual(compiled["memory_planner"], "PTOAS", "the caller's compile options are kept")
        self.assertIn("AssertionError: c was never computed", data["main_stopped"])
        self.assertNotIn("choice_note", data)
        self.assertNotIn("simpler_setup", proc.stderr, "nothing is dispatched")
        self.assertEqual(sorted(os.listdir(os.path.join(self.root, "examples"))), ["hello.py"])

    def test_entries_lowered_from_a_list_of_cases_are_each_compiled(self):
        # pypto's examples/intermediate/05_assemble.py: `for name, fn, args in cases: fn.lower(*args)`
        # runs the pass pipeline only; each lowering dumps its passes into a folder of its own, on
        # port-check's platform.
        path = self.write("examples/assemble.py", """
            import pypto.language as pl
            """ + textwrap.indent(self.sample(), "            ").lstrip() + """
            @pl.jit
            def wide(a: pl.Tensor, c: pl.Out[pl.Tensor]):
                pass

            @pl.jit
            def narrow(a: pl.Tensor, c: pl.Out[pl.Tensor]):
                pass

            if __name__ == "__main__":
                cases = [("wide", wide, (Sample(32, 64), Sample(32, 64))), ("narrow", narrow, (Sample(32, 16), Sample(32, 16)))]
                for name, fn, args in cases:
                    prog = fn.lower(*args)
        """)
        proc, data, _ = self.run_adapter("--program-file", path, platform="a5")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(data["status"], "ok", data)
        self.assertEqual(data["specs_source"], "__main__")
        self.assertEqual(self.programs(data), [("wide", "wide"), ("narrow", "narrow")])
        for folder, cols in (("wide", 64), ("narrow", 16)):
            with open(os.path.join(self.root, "out", folder, "mock_lower.json")) as f:
                lowered = json.load(f)
            self.assertEqual(lowered["operation"], "lower")
            self.assertEqual(lowered["platform"], "a5sim")
            self.assertEqual([a["shape"] for a in lowered["args"]], [[32, cols]] * 2)

    def test_bare_tensor_entry_without_main_cannot_be_specialised(self):
        path = self.write("examples/hello.py", """
            import pypto.language as pl
            @pl.jit
            def tile_add(a: pl.Tensor, c: pl.Out[pl.Tensor]):
                pass
        """)
        _, data, _ = self.run_adapter("--program-file", path)
        self.assertEqual(data["status"], "compile_error")
        self.assertIn("bare 'pl.Tensor'", data["exception_message"])

    def test_programs_main_compiles_through_the_harness_are_each_named(self):
        path = self.write("models/pair.py", TWO_PROGRAMS)
        proc, data, _ = self.run_adapter("--program-file", path, env=self.lib())
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(data["status"], "ok", data)
        self.assertEqual(data["main_argv"], "-p a2a3sim")
        self.assertEqual(self.programs(data), [("add_rows", "add_rows"), ("scale_rows", "scale_rows")])
        self.assertEqual(self.compiled_in("add_rows")["args"][0]["shape"], [8, 32])
        self.assertEqual(self.compiled_in("scale_rows")["args"][0]["shape"], [16, 32])
        self.assertEqual(data["candidates"], "add_rows, scale_rows, unused")
        self.assertNotIn("choice_note", data, "what __main__ leaves out is the author's choice")
        self.assertNotIn("main_stopped", data)
        self.assertEqual(sorted(os.listdir(os.path.join(self.root, "models"))), ["pair.py"],
                         "what __main__ writes stays out of the user's tree")

    def test_the_platform_reaches_main_as_its_documented_argument(self):
        path = self.write("models/pair.py", TWO_PROGRAMS)
        _, data, _ = self.run_adapter("--program-file", path, env=self.lib(), platform="a5")
        self.assertEqual(data["main_argv"], "-p a5sim")
        self.assertEqual(self.compiled_in("scale_rows")["platform"], "a5sim")

    def test_a_platform_choice_without_sim_gets_the_device_name(self):
        path = self.write("models/pair.py", TWO_PROGRAMS.replace('choices=["a2a3sim", "a5sim"]', 'choices=["a2a3", "a5"]'))
        _, data, _ = self.run_adapter("--program-file", path, env=self.lib())
        self.assertEqual(data["main_argv"], "-p a2a3")
        self.assertEqual(self.compiled_in("add_rows")["platform"], "a2a3sim", "the compile is still port-check's")

    def test_entry_in_the_file_keeps_one_of_the_programs_main_compiles(self):
        path = self.write("models/pair.py", 'ENTRY = "scale_rows"\n' + TWO_PROGRAMS)
        _, data, _ = self.run_adapter("--program-file", path, env=self.lib())
        self.assertEqual(self.programs(data), [("scale_rows", "scale_rows")])

    def test_a_compile_failure_in_main_names_the_program(self):
        path = self.write("models/pair.py", TWO_PROGRAMS)
        env = dict(self.lib(), MOCK_FAIL="oom", MOCK_FAIL_ONLY="scale_rows")
        proc, data, _ = self.run_adapter("--program-file", path, env=env)
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(data["status"], "compile_error")
        self.assertEqual(data["program"], "scale_rows")
        self.assertEqual(data["exception_type"], "ValueError")
        self.assertEqual(self.programs(data), [("add_rows", "add_rows"), ("scale_rows", "scale_rows")])

    def test_main_stopping_early_says_which_programs_were_left_out(self):
        path = self.write("models/pair.py", TWO_PROGRAMS.replace("(scale_rows, 16)", "(None, 16)"))
        _, data, _ = self.run_adapter("--program-file", path, env=self.lib())
        self.assertEqual(data["status"], "ok")
        self.assertEqual(self.programs(data), [("add_rows", "add_rows")])
        self.assertIn("scale_rows, unused were not compiled", data["choice_note"])
        self.assertIn("ENTRY", data["choice_note"])

    def test_main_that_fails_before_compiling_falls_back_to_the_specs_with_a_note(self):
        path = self.write("lib2/softmax.py", """
            import pypto.language as pl
            @pl.jit
            def softmax(x: pl.Tensor[[4, 8], pl.FP32]):
                pass
            if __name__ == "__main__":
                raise SystemExit("needs an NPU")
        """)
        _, data, compiled = self.run_adapter("--program-file", path)
        self.assertEqual(data["status"], "ok", data)
        self.assertEqual(data["specs_source"], "signature")
        self.assertEqual(compiled["args"][0]["shape"], [4, 8])
        self.assertIn("stopped before compiling anything (SystemExit: needs an NPU)", data["choice_note"])

    def test_a_program_built_by_a_function_main_calls_is_compiled(self):
        # pypto's examples/models/05_paged_attention_batch.py: main() builds the @pl.program class for
        # its sizes, and the parser reads the class's source through its module, "__main__".
        path = self.write("examples/built.py", """
            import pypto.language as pl
            from pypto import ir

            def build_program(rows):
                @pl.program
                class Built:
                    pass
                return Built

            def main():
                ir.compile(build_program(rows=16), dump_passes=True)

            if __name__ == "__main__":
                main()
        """)
        proc, data, _ = self.run_adapter("--program-file", path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(data["status"], "ok", data)
        self.assertEqual(self.programs(data), [("Built", "Built")])

    def test_no_program_says_why_main_compiled_nothing(self):
        path = self.write("examples/built.py", """
            import pypto.language as pl

            def build_program(rows):
                raise RuntimeError("needs an NPU to size " + str(rows))

            if __name__ == "__main__":
                build_program(16)
        """)
        proc, data, _ = self.run_adapter("--program-file", path)
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(data["status"], "no_program")
        self.assertIn("RuntimeError: needs an NPU to size 16", data["exception_message"])

    def test_several_programs_without_main_are_each_compiled_and_named(self):
        path = self.write("lib2/two.py", """
            import pypto.language as pl
            @pl.jit
            def first(x: pl.Tensor[[4, 8], pl.FP32]):
                pass
            @pl.program
            class Second:
                pass
        """)
        proc, data, _ = self.run_adapter("--program-file", path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(data["status"], "ok", data)
        self.assertEqual(self.programs(data), [("first", "first"), ("Second", "Second")])
        self.assertEqual(self.compiled_in("Second")["program"], "Second")
        self.assertIn("2 programs (first, Second)", data["choice_note"])

    def test_build_tensor_specs_needing_arguments_is_a_spec_error_without_main(self):
        path = self.write("lib2/specs.py", """
            import pypto.language as pl
            @pl.jit
            def entry(x):
                pass
            def build_tensor_specs(rows, cols):
                return [("x", [rows, cols], "float32")]
        """)
        _, data, _ = self.run_adapter("--program-file", path)
        self.assertEqual(data["status"], "spec_error")
        self.assertIn("build_tensor_specs() needs rows, cols", data["exception_message"])


if __name__ == "__main__":
    unittest.main()
