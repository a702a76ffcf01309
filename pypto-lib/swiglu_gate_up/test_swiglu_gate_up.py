"""Tests of pypto-lib/swiglu_gate_up: the SwiGLU reference, the kernel's epilogue formulation
(g * recip(1 + exp(-g)), including where exp overflows) and its K-chunked accumulation, and the
golden's tolerances.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/swiglu_gate_up/test_swiglu_gate_up.py
"""
import functools
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


class _Anything:
    """Stands in for pypto.language: decorators return the function, everything else itself."""

    def __getattr__(self, name):
        return self

    def __getitem__(self, key):
        return self

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], _Anything):
            return args[0]
        return self


def load_block(name):
    pypto = types.ModuleType("pypto")
    pypto.language = _Anything()
    golden = types.ModuleType("golden")

    class TensorSpec:
        def __init__(self, name, shape, dtype, init_value=None, is_output=False):
            self.name, self.shape, self.dtype, self.init_value, self.is_output = name, shape, dtype, init_value, is_output

    golden.TensorSpec = TensorSpec
    saved = {k: sys.modules.get(k) for k in ("pypto", "pypto.language", "golden")}
    sys.modules.update({"pypto": pypto, "pypto.language": pypto.language, "golden": golden})
    try:
        spec = importlib.util.spec_from_file_location(f"_block_{name}", HERE / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.build_tensor_specs_result = module.build_tensor_specs()
        return module
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


B = load_block("swiglu_gate_up")


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


if __name__ == "__main__":
    unittest.main()
