"""Tests of pypto-lib/int8_quant: per-row symmetric INT8 quantisation and its golden.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/int8_quant/test_int8_quant.py
"""
import collections
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
BLOCK = "int8_quant"


def _load_block():
    """Import the block with stand-ins for pypto.language and pypto-lib's golden package.

    The golden math is plain torch; the stand-ins only let the module's decorators, annotations
    and `from golden import TensorSpec` evaluate without a PyPTO build.
    """

    class _Any:
        def __getattr__(self, name):
            return self

        def __getitem__(self, key):
            return self

        def __call__(self, *args, **kwargs):
            if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], _Any):
                return args[0]
            return self

    pypto = types.ModuleType("pypto")
    language = types.ModuleType("pypto.language")
    language.__getattr__ = lambda name: _Any()
    pypto.language = language
    golden = types.ModuleType("golden")
    golden.TensorSpec = collections.namedtuple(
        "TensorSpec", ["name", "shape", "dtype", "init_value", "is_output"], defaults=[None, False]
    )
    saved = {k: sys.modules.get(k) for k in ("pypto", "pypto.language")}
    sys.modules.update({"pypto": pypto, "pypto.language": language})
    sys.modules.setdefault("golden", golden)  # build_tensor_specs imports it when called
    try:
        spec = importlib.util.spec_from_file_location(f"_block_{BLOCK}", HERE / f"{BLOCK}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


B = _load_block()


class QuantTest(unittest.TestCase):
    def setUp(self):
        self.x = B._x()
        self.q, self.scale = B.quant_reference(self.x)

    def test_dequantised_values_are_within_half_a_step(self):
        err = (self.q.float() * self.scale[:, None] - self.x).abs()
        self.assertTrue(bool((err <= self.scale[:, None] * 0.5 * (1 + 1e-5)).all()))

    def test_range_and_amax_maps_to_127(self):
        self.assertLessEqual(self.q.abs().max().item(), 127)
        nonzero = self.x.abs().amax(dim=-1) > 0
        self.assertTrue(bool((self.q.abs().amax(dim=-1)[nonzero] == 127).all()))

    def test_zero_row_uses_eps_and_quantises_to_zero(self):
        self.assertTrue(bool((self.q[5] == 0).all()))
        self.assertAlmostEqual(self.scale[5].item(), B.AMAX_EPS / 127.0, places=12)

    def test_constant_row_is_all_minus_127(self):
        self.assertTrue(bool((self.q[9] == -127).all()))

    def test_golden_and_tolerances(self):
        specs = B.build_tensor_specs()
        self.assertEqual([x.name for x in specs], ["x", "q", "scale"])
        tensors = {x.name: (x.init_value() if x.init_value else torch.zeros(x.shape, dtype=x.dtype)) for x in specs}
        B.golden_int8_quant_rows_block(tensors)
        self.assertTrue(torch.equal(tensors["q"], self.q))
        # One quantisation step of slack on q is real slack, not a blanket pass: an off-by-two fails.
        rtol, atol = B.TOLERANCES["q"]
        shifted = tensors["q"].float() + 2
        self.assertFalse(torch.allclose(shifted, tensors["q"].float(), rtol=rtol, atol=atol))


if __name__ == "__main__":
    unittest.main()
