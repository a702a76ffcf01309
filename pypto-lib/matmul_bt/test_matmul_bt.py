"""Tests of pypto-lib/matmul_bt: y = a @ w^T against nn.Linear, the kernel's K-chunked FP32
accumulation, and the golden's tolerances.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/matmul_bt/test_matmul_bt.py
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from block_testing import check_contract_runs, contract_runs, load_block, torch  # noqa: E402  (exits 77, skipped, without torch)

B = load_block(pathlib.Path(__file__).resolve().parent / "matmul_bt.py")


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

    def test_contract_cases_differ_by_seed_and_from_the_base(self):
        check_contract_runs(self, B, B.golden_matmul_bt_block)

    def test_fp32_accumulation_fits_the_tolerance_in_every_contract_case(self):
        for run, t in contract_runs(B, B.golden_matmul_bt_block):
            chunked = torch.zeros(B.TOKENS, B.HIDDEN)
            for k0 in range(0, B.INTER, B.K_TILE):
                chunked += t["a"][:, k0 : k0 + B.K_TILE].float() @ t["w"][:, k0 : k0 + B.K_TILE].float().t()
            self.assertTrue(passes(chunked, t["y"]), run["label"])
            self.assertTrue(passes(t["a"].float() @ t["w"].float().t(), t["y"]), run["label"])  # another order


if __name__ == "__main__":
    unittest.main()
