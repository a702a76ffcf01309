"""Tests of pypto-lib/layer_norm: the LayerNorm reference, its golden and tolerances, and the
kernel's formula (pre-scaled row sums, centred variance, 1 / sqrt) replayed in FP32 torch.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/layer_norm/test_layer_norm.py
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from block_testing import check_contract_runs, contract_runs, load_block, torch  # noqa: E402  (exits 77, skipped, without torch)

B = load_block(pathlib.Path(__file__).resolve().parent / "layer_norm.py")


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

    def test_contract_cases_differ_by_seed_and_from_the_base(self):
        check_contract_runs(self, B, B.golden_layer_norm_block)

    def test_kernel_formula_fits_the_tolerance_in_every_contract_case(self):
        for run, t in contract_runs(B, B.golden_layer_norm_block):
            replay = kernel_replay(t["x"], t["gamma"], t["beta"], sequential=False)
            self.assertLess(allowance_used(replay, t["y"]), 0.5, run["label"])


if __name__ == "__main__":
    unittest.main()
