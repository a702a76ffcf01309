"""Tests of pypto-lib/swiglu_gate_up: the SwiGLU reference, the kernel's epilogue formulation
(g * recip(1 + exp(-g)), including where exp overflows) and its K-chunked accumulation, and the
golden's tolerances.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/swiglu_gate_up/test_swiglu_gate_up.py
"""
import pathlib
import sys
import unittest
import functools

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from block_testing import check_contract_runs, contract_runs, load_block, torch  # noqa: E402  (exits 77, skipped, without torch)

B = load_block(pathlib.Path(__file__).resolve().parent / "swiglu_gate_up.py")


@functools.lru_cache(maxsize=1)
def products():
    """(h reference, gate, up) in FP32, computed once for all tests."""
    x, w_gate, w_up = B._inputs()
    gate = x.float() @ w_gate.float().t()
    up = x.float() @ w_up.float().t()
    return B.swiglu_gate_up_reference(x, w_gate, w_up), gate, up


def epilogue(gate, up):
    """The kernel's vector epilogue in FP32: neg, exp, +1, recip, mul, mul, BF16 (nearest even)."""
    sigmoid = 1.0 / (torch.exp(-gate) + 1.0)
    return (gate * sigmoid * up).to(torch.bfloat16)


def passes(actual, expected):
    return torch.allclose(actual.float(), expected.float(), rtol=B.RTOL, atol=B.ATOL)


class SwigluGateUpTest(unittest.TestCase):
    def setUp(self):
        self.x, self.w_gate, self.w_up = B._inputs()
        self.h, self.gate, self.up = products()

    def test_reference_is_the_llama_mlp_activation(self):
        lin = torch.nn.functional.linear
        gate = lin(self.x.float(), self.w_gate.float())
        self.assertTrue(passes(self.h, gate * torch.sigmoid(gate) * self.up))

    def test_epilogue_formulation_is_silu_including_where_exp_overflows(self):
        g = torch.tensor([[-1000.0, -100.0, -88.0, -20.0, -1.0, 0.0, 1e-6, 1.0, 20.0, 100.0, 1000.0]])
        up = torch.ones_like(g)
        got = epilogue(g, up).float()
        self.assertFalse(bool(torch.isnan(got).any()))
        self.assertTrue(torch.allclose(got, torch.nn.functional.silu(g).to(torch.bfloat16).float(), rtol=0, atol=0))

    def test_k_chunked_accumulation_matches_the_golden(self):
        gate = torch.zeros(B.TOKENS, B.INTER)
        up = torch.zeros(B.TOKENS, B.INTER)
        for k0 in range(0, B.HIDDEN, B.K_TILE):
            xc = self.x[:, k0 : k0 + B.K_TILE].float()
            gate += xc @ self.w_gate[:, k0 : k0 + B.K_TILE].float().t()
            up += xc @ self.w_up[:, k0 : k0 + B.K_TILE].float().t()
        self.assertTrue(passes(epilogue(gate, up), self.h))

    def test_gate_spans_the_nonlinear_range_of_silu(self):
        self.assertGreater((self.gate < -2).float().mean().item(), 0.1)
        self.assertGreater((self.gate > 2).float().mean().item(), 0.1)

    def test_tolerance_catches_real_mistakes(self):
        gate, up = self.gate, self.up
        self.assertFalse(passes(gate * up, self.h))                                  # no sigmoid
        self.assertFalse(passes(up * torch.sigmoid(up) * gate, self.h))              # gate / up swapped
        skipped = self.x.float().clone()
        skipped[:, : B.K_TILE] = 0                                                  # one K chunk lost
        g2 = skipped @ self.w_gate.float().t()
        self.assertFalse(passes(g2 * torch.sigmoid(g2) * (skipped @ self.w_up.float().t()), self.h))
        self.assertFalse(passes(torch.zeros_like(self.h), self.h))

    def test_specs_follow_the_entry_and_the_golden_fills_the_output(self):
        specs = B.build_tensor_specs_result
        self.assertEqual([s.name for s in specs], ["x", "w_gate", "w_up", "h"])
        self.assertEqual(specs[1].shape, [B.INTER, B.HIDDEN])
        tensors = {s.name: (s.init_value() if s.init_value else torch.zeros(s.shape, dtype=s.dtype)) for s in specs}
        B.golden_swiglu_gate_up_block(tensors)
        self.assertTrue(torch.equal(tensors["h"], self.h))

    def test_contract_cases_differ_by_seed_and_from_the_base(self):
        check_contract_runs(self, B, B.golden_swiglu_gate_up_block)

    def test_kernel_epilogue_fits_the_tolerance_in_every_contract_case(self):
        for run, t in contract_runs(B, B.golden_swiglu_gate_up_block):
            gate = torch.zeros(B.TOKENS, B.INTER)
            up = torch.zeros(B.TOKENS, B.INTER)
            for k0 in range(0, B.HIDDEN, B.K_TILE):
                xc = t["x"][:, k0 : k0 + B.K_TILE].float()
                gate += xc @ t["w_gate"][:, k0 : k0 + B.K_TILE].float().t()
                up += xc @ t["w_up"][:, k0 : k0 + B.K_TILE].float().t()
            self.assertTrue(passes(epilogue(gate, up), t["h"]), run["label"])


if __name__ == "__main__":
    unittest.main()
