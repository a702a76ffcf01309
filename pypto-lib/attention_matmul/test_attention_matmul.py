"""Tests of pypto-lib/attention_matmul: the QK and PV block matmuls and their golden.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/attention_matmul/test_attention_matmul.py
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from block_testing import check_contract_runs, contract_runs, load_block, torch  # noqa: E402  (exits 77, skipped, without torch)

B = load_block(pathlib.Path(__file__).resolve().parent / "attention_matmul.py")


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

    def test_contract_cases_differ_by_seed_and_from_the_base(self):
        check_contract_runs(self, B, B.golden_attention_matmul_block)

    def test_fp32_summation_fits_the_tolerance_in_every_contract_case(self):
        for run, t in contract_runs(B, B.golden_attention_matmul_block):
            s = torch.zeros(B.Q_TILE, B.KV_BLOCK)
            for d in range(B.HEAD_DIM):  # strictly left to right: the worst order
                s += t["q_tile"][:, d : d + 1].float() * t["k_blk"][:, d : d + 1].float().T
            self.assertTrue(torch.allclose(s, t["s"], rtol=B.RTOL, atol=B.ATOL), run["label"])
            o = t["p"].float() @ t["v_blk"].float()
            self.assertTrue(torch.allclose(o, t["o_blk"], rtol=B.RTOL, atol=B.ATOL), run["label"])


if __name__ == "__main__":
    unittest.main()
