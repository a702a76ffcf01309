"""Tests of pypto-lib/online_softmax_prepare: block masking, statistics and the golden.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/online_softmax_prepare/test_online_softmax_prepare.py
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
BLOCK = "online_softmax_prepare"


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


class PrepareTest(unittest.TestCase):
    def setUp(self):
        self.s = B._scores()

    def test_padded_columns_do_not_reach_max_sum_or_p(self):
        p, m, l = B.prepare_reference(self.s, B.TEST_SCALE, B.TEST_VALID_LEN)
        self.assertTrue(bool((p[:, B.TEST_VALID_LEN:] == 0).all()))
        self.assertLess(m.max().item(), 1.0e4 * B.TEST_SCALE)  # the 1e4 score is padded away
        valid = self.s[:, : B.TEST_VALID_LEN] * B.TEST_SCALE
        self.assertTrue(torch.equal(m, valid.max(dim=-1).values))

    def test_row_sum_is_taken_over_the_bf16_p(self):
        p, _, l = B.prepare_reference(self.s, B.TEST_SCALE, B.TEST_VALID_LEN)
        self.assertTrue(torch.allclose(l, p.float().sum(dim=-1), rtol=1e-6, atol=0))
        self.assertTrue(bool((l >= 1.0).all()))  # the max element contributes exp(0) = 1

    def test_full_block_is_the_unmasked_softmax_numerator(self):
        s = self.s[:, : B.KV_BLOCK - 1]
        p, m, l = B.prepare_reference(s, B.TEST_SCALE, s.shape[1])
        ref = torch.softmax(s * B.TEST_SCALE, dim=-1)
        self.assertTrue(torch.allclose(p.float() / l[:, None], ref, rtol=B.RTOL, atol=B.ATOL))

    def test_specs_and_golden(self):
        specs = B.build_tensor_specs()
        self.assertEqual([x.name for x in specs], ["s", "p", "m_blk", "l_blk"])
        tensors = {x.name: (x.init_value() if x.init_value else torch.zeros(x.shape, dtype=x.dtype)) for x in specs}
        B.golden_online_softmax_prepare_block(tensors)
        self.assertEqual(tensors["p"].dtype, torch.bfloat16)
        self.assertGreater(tensors["l_blk"].min().item(), 1.0 - 1e-6)
        self.assertEqual(tuple(tensors["m_blk"].shape), (1, B.Q_TILE))


if __name__ == "__main__":
    unittest.main()
