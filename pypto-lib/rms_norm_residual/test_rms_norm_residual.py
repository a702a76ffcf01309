"""Tests of pypto-lib/rms_norm_residual: the residual-add RMSNorm reference, its golden and the
kernel's two-pass chunked algorithm, replayed in torch.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/rms_norm_residual/test_rms_norm_residual.py
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from block_testing import check_contract_runs, contract_runs, load_block, torch  # noqa: E402  (exits 77, skipped, without torch)

B = load_block(pathlib.Path(__file__).resolve().parent / "rms_norm_residual.py")


def kernel_replay(x, residual, weight):
    """The kernel's algorithm in torch: two passes over HIDDEN_TILE chunks, FP32, 1 / sqrt."""
    rows = x.shape[0]
    sq_sum = torch.zeros(rows, 1)
    residual_out = torch.empty_like(x)
    for h0 in range(0, B.HIDDEN, B.HIDDEN_TILE):
        h = x[:, h0 : h0 + B.HIDDEN_TILE].float() + residual[:, h0 : h0 + B.HIDDEN_TILE].float()
        residual_out[:, h0 : h0 + B.HIDDEN_TILE] = h.to(torch.bfloat16)
        sq_sum += (h * h).sum(dim=-1, keepdim=True)
    inv_rms = 1.0 / torch.sqrt(sq_sum * (1.0 / B.HIDDEN) + B.EPS)
    y = torch.empty_like(x)
    for h0 in range(0, B.HIDDEN, B.HIDDEN_TILE):
        h = x[:, h0 : h0 + B.HIDDEN_TILE].float() + residual[:, h0 : h0 + B.HIDDEN_TILE].float()
        w = weight[:, h0 : h0 + B.HIDDEN_TILE].float()
        y[:, h0 : h0 + B.HIDDEN_TILE] = (h * inv_rms * w).to(torch.bfloat16)
    return y, residual_out


def passes(actual, expected):
    return torch.allclose(actual.float(), expected.float(), rtol=B.RTOL, atol=B.ATOL)


class RmsNormResidualTest(unittest.TestCase):
    def setUp(self):
        self.x, self.residual, self.weight = B._inputs()
        self.y, self.residual_out = B.rms_norm_residual_reference(self.x, self.residual, self.weight)

    def test_reference_matches_an_independent_formulation(self):
        h = self.x.float() + self.residual.float()
        rms = torch.sqrt(torch.linalg.vector_norm(h, dim=-1, keepdim=True) ** 2 / B.HIDDEN + B.EPS)
        self.assertTrue(passes(self.y, h / rms * self.weight.float()))
        self.assertTrue(torch.equal(self.residual_out, h.to(torch.bfloat16)))

    def test_two_pass_chunked_algorithm_matches_the_golden(self):
        y, residual_out = kernel_replay(self.x, self.residual, self.weight)
        self.assertTrue(passes(y, self.y))
        self.assertTrue(torch.equal(residual_out, self.residual_out))

    def test_constant_row_normalises_to_the_weight(self):
        self.assertTrue(passes(self.y[5], self.weight[0]))

    def test_rows_of_any_scale_come_out_at_unit_rms(self):
        rms = (self.y.float() / self.weight.float()).pow(2).mean(dim=-1).sqrt()
        self.assertTrue(bool(((rms - 1.0).abs() < 1e-2).all()))

    def test_tolerance_catches_real_mistakes(self):
        h = self.x.float() + self.residual.float()
        no_weight = h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + B.EPS)
        self.assertFalse(passes(no_weight, self.y))
        no_residual = self.x.float() * torch.rsqrt(self.x.float().pow(2).mean(dim=-1, keepdim=True) + B.EPS)
        self.assertFalse(passes(no_residual * self.weight.float(), self.y))
        # A chunk loop that stops one chunk short of HIDDEN in pass 1.
        part = h[:, : B.HIDDEN - B.HIDDEN_TILE]
        short = h * torch.rsqrt(part.pow(2).sum(dim=-1, keepdim=True) / B.HIDDEN + B.EPS) * self.weight.float()
        self.assertFalse(passes(short, self.y))
        self.assertFalse(passes(torch.zeros_like(self.y), self.y))

    def test_specs_follow_the_entry_and_the_golden_fills_the_outputs(self):
        specs = B.build_tensor_specs_result
        self.assertEqual([s.name for s in specs], ["x", "residual", "weight", "y", "residual_out"])
        self.assertEqual([s.is_output for s in specs], [False, False, False, True, True])
        tensors = {s.name: (s.init_value() if s.init_value else torch.zeros(s.shape, dtype=s.dtype)) for s in specs}
        B.golden_rms_norm_residual_block(tensors)
        self.assertTrue(torch.equal(tensors["y"], self.y))
        self.assertTrue(torch.equal(tensors["residual_out"], self.residual_out))

    def test_contract_cases_differ_by_seed_and_from_the_base(self):
        check_contract_runs(self, B, B.golden_rms_norm_residual_block)

    def test_kernel_algorithm_fits_the_tolerance_in_every_contract_case(self):
        for run, t in contract_runs(B, B.golden_rms_norm_residual_block):
            y, residual_out = kernel_replay(t["x"], t["residual"], t["weight"])
            self.assertTrue(passes(y, t["y"]), run["label"])
            self.assertTrue(torch.equal(residual_out, t["residual_out"]), run["label"])


if __name__ == "__main__":
    unittest.main()
