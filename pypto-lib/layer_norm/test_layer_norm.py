"""Tests of pypto-lib/layer_norm: the LayerNorm reference, its golden and tolerances, and the
kernel's formula (pre-scaled row sums, centred variance, recip(sqrt)) replayed in FP32 torch.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/layer_norm/test_layer_norm.py
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


B = load_block("layer_norm")


def kernel_replay(x, gamma, beta, sequential):
    """The kernel's formula in FP32; `sequential` sums each row left to right (worst order)."""
    inv_h = torch.tensor(1.0 / B.HIDDEN, dtype=torch.float32)

    def row_sum(a):
        if not sequential:
            return a.sum(dim=-1, keepdim=True)
        s = torch.zeros(a.shape[0], 1)
        for j in range(a.shape[1]):
            s += a[:, j : j + 1]
        return s

    mean = row_sum(x * inv_h)
    centered = x - mean
    var = row_sum(centered * centered * inv_h)
    return centered * (1.0 / torch.sqrt(var + B.EPS)) * gamma + beta


def allowance_used(actual, expected):
    return ((actual - expected).abs() / (B.ATOL + B.RTOL * expected.abs())).max().item()


class LayerNormTest(unittest.TestCase):
    def setUp(self):
        self.x, self.gamma, self.beta = B._inputs()
        self.y = B.layer_norm_reference(self.x, self.gamma, self.beta)

    def test_reference_matches_torch_layer_norm(self):
        ref = torch.nn.functional.layer_norm(self.x, (B.HIDDEN,), self.gamma[0], self.beta[0], eps=B.EPS)
        self.assertLess(allowance_used(ref, self.y), 1.0)

    def test_kernel_formula_fits_the_tolerance_even_with_sequential_sums(self):
        self.assertLess(allowance_used(kernel_replay(self.x, self.gamma, self.beta, sequential=True), self.y), 0.5)
        self.assertLess(allowance_used(kernel_replay(self.x, self.gamma, self.beta, sequential=False), self.y), 0.5)

    def test_zero_variance_row_is_beta(self):
        self.assertTrue(torch.allclose(self.y[9], self.beta[0], rtol=0.0, atol=1e-7))

    def test_tolerance_catches_real_mistakes(self):
        self.assertGreater(allowance_used(self.y - self.beta, self.y), 1.0)            # beta dropped
        no_eps = B.layer_norm_reference(self.x, self.gamma, self.beta, eps=1e-3)
        self.assertGreater(allowance_used(no_eps, self.y), 1.0)                       # wrong eps
        self.assertGreater(allowance_used(torch.zeros_like(self.y), self.y), 1.0)

    def test_specs_follow_the_entry_and_the_golden_fills_the_output(self):
        specs = B.build_tensor_specs_result
        self.assertEqual([s.name for s in specs], ["x", "gamma", "beta", "y"])
        tensors = {s.name: (s.init_value() if s.init_value else torch.zeros(s.shape, dtype=s.dtype)) for s in specs}
        B.golden_layer_norm_block(tensors)
        self.assertTrue(torch.equal(tensors["y"], self.y))


if __name__ == "__main__":
    unittest.main()
