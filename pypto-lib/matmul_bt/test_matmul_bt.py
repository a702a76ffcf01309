"""Tests of pypto-lib/matmul_bt: y = a @ w^T against nn.Linear, the kernel's K-chunked FP32
accumulation, and the golden's tolerances.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/matmul_bt/test_matmul_bt.py
"""
import importlib.util
import pathlib
import sys
import types
import unittest

try:
    import torch
except ImportError:  # pragma: no cover - depends on the machine
    print("SKIP: torch is not installed")
    raise SystemExit(77)

HERE = pathlib.Path(__file__).resolve().parent


class _Anything:
    """Stands in for pypto.language: decorators return the function, everything else itself."""

    def __getattr__(self, name):
        return self

    def __getitem__(self, key):
        return self

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], _Anything):
            return args[0]
        return self


def load_block(name):
    pypto = types.ModuleType("pypto")
    pypto.language = _Anything()
    golden = types.ModuleType("golden")

    class TensorSpec:
        def __init__(self, name, shape, dtype, init_value=None, is_output=False):
            self.name, self.shape, self.dtype, self.init_value, self.is_output = name, shape, dtype, init_value, is_output

    golden.TensorSpec = TensorSpec
    saved = {k: sys.modules.get(k) for k in ("pypto", "pypto.language", "golden")}
    sys.modules.update({"pypto": pypto, "pypto.language": pypto.language, "golden": golden})
    try:
        spec = importlib.util.spec_from_file_location(f"_block_{name}", HERE / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.build_tensor_specs_result = module.build_tensor_specs()
        return module
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


B = load_block("matmul_bt")


def passes(actual, expected):
    return torch.allclose(actual.float(), expected.float(), rtol=B.RTOL, atol=B.ATOL)


class MatmulBtTest(unittest.TestCase):
    def setUp(self):
        self.a, self.w = B._inputs()
        self.y = B.matmul_bt_reference(self.a, self.w)

    def test_reference_is_nn_linear(self):
        self.assertTrue(passes(torch.nn.functional.linear(self.a.float(), self.w.float()), self.y))

    def test_k_chunked_fp32_accumulation_matches_the_golden(self):
        acc = torch.zeros(B.TOKENS, B.HIDDEN)
        for k0 in range(0, B.INTER, B.K_TILE):
            acc += self.a[:, k0 : k0 + B.K_TILE].float() @ self.w[:, k0 : k0 + B.K_TILE].float().t()
        self.assertTrue(passes(acc, self.y))

    def test_tiles_cover_the_problem_exactly(self):
        self.assertEqual(B.INTER % B.K_TILE, 0)
        self.assertEqual(B.HIDDEN % B.D_TILE, 0)
        self.assertEqual(B.M_TILE, B.TOKENS)
        self.assertGreaterEqual(B.K_TILE * 2, 512)          # BF16 operand rows of >= 512 B

    def test_tolerance_catches_real_mistakes(self):
        acc = torch.zeros(B.TOKENS, B.HIDDEN)
        for k0 in range(B.K_TILE, B.INTER, B.K_TILE):         # first chunk skipped (matmul_acc without matmul)
            acc += self.a[:, k0 : k0 + B.K_TILE].float() @ self.w[:, k0 : k0 + B.K_TILE].float().t()
        self.assertFalse(passes(acc, self.y))
        self.assertFalse(passes(self.a.float() @ self.w.float().t() * 1.001, self.y))   # 0.1 % scale error
        self.assertFalse(passes(torch.zeros_like(self.y), self.y))

    def test_specs_follow_the_entry_and_the_golden_fills_the_output(self):
        specs = B.build_tensor_specs_result
        self.assertEqual([s.name for s in specs], ["a", "w", "y"])
        tensors = {s.name: (s.init_value() if s.init_value else torch.zeros(s.shape, dtype=s.dtype)) for s in specs}
        B.golden_matmul_bt_block(tensors)
        self.assertTrue(torch.equal(tensors["y"], self.y))


if __name__ == "__main__":
    unittest.main()
