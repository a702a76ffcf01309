"""Tests of pypto-lib/attention_matmul: the QK and PV block matmuls and their golden.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/attention_matmul/test_attention_matmul.py
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
BLOCK = "attention_matmul"


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


class MatmulGoldenTest(unittest.TestCase):
    def setUp(self):
        specs = B.build_tensor_specs()
        self.names = [x.name for x in specs]
        self.t = {x.name: (x.init_value() if x.init_value else torch.zeros(x.shape, dtype=x.dtype)) for x in specs}
        B.golden_attention_matmul_block(self.t)

    def test_specs_follow_the_entry_parameters(self):
        self.assertEqual(self.names, ["q_tile", "k_blk", "p", "v_blk", "s", "o_blk"])

    def test_scores_are_row_dot_products_with_keys(self):
        q, k = self.t["q_tile"].double(), self.t["k_blk"].double()
        for i, j in ((0, 0), (3, 17), (63, 63)):
            self.assertAlmostEqual(self.t["s"][i, j].item(), float(q[i] @ k[j]), delta=1e-3)

    def test_an_untransposed_k_would_fail(self):
        q, k = self.t["q_tile"].float(), self.t["k_blk"].float()
        wrong = q[:, :64] @ k[:, :64]  # K used as [KV_BLOCK, HEAD_DIM] without the transpose view
        self.assertFalse(torch.allclose(wrong, self.t["s"], rtol=B.RTOL, atol=B.ATOL))

    def test_tolerance_covers_fp32_summation_order(self):
        q, k = self.t["q_tile"].double(), self.t["k_blk"].double()
        exact = q @ k.T
        self.assertTrue(torch.allclose(self.t["s"].double(), exact, rtol=B.RTOL, atol=B.ATOL))
        self.assertLess(exact.abs().max().item(), 60.0)  # the magnitude the ATOL argument assumes


if __name__ == "__main__":
    unittest.main()
