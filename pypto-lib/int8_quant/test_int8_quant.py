"""Tests of pypto-lib/int8_quant: per-row symmetric INT8 quantisation and its golden.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/int8_quant/test_int8_quant.py
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from block_testing import check_contract_runs, load_block, torch  # noqa: E402  (exits 77, skipped, without torch)

B = load_block(pathlib.Path(__file__).resolve().parent / "int8_quant.py")


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

    def test_contract_cases_differ_by_seed_and_from_the_base(self):
        check_contract_runs(self, B, B.golden_int8_quant_rows_block)


if __name__ == "__main__":
    unittest.main()
