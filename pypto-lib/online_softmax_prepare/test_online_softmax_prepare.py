"""Tests of pypto-lib/online_softmax_prepare: block masking, statistics and the golden.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/online_softmax_prepare/test_online_softmax_prepare.py
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from block_testing import check_contract_runs, load_block, torch  # noqa: E402  (exits 77, skipped, without torch)

B = load_block(pathlib.Path(__file__).resolve().parent / "online_softmax_prepare.py")


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

    def test_contract_cases_differ_by_seed_and_from_the_base(self):
        check_contract_runs(self, B, B.golden_online_softmax_prepare_block)


if __name__ == "__main__":
    unittest.main()
