"""Golden for the port rmsnorm_quant_int8: inputs, reference computation and tolerances.

The reference is original/rmsnorm_quant.py evaluated in FP32 exactly as torch does:
  variance = mean(x^2); y = x * rsqrt(variance + eps) * weight;
  amax = clamp(max|y|, 1e-6); scale = amax / 127; q = int8(clamp(round(y / scale), -127, 127)).
Plain torch, never imports pypto.
"""
import torch

ENTRY = "rmsnorm_quant"
__outputs__ = ["q", "scale"]

TOKENS = 128
HIDDEN = 1024
EPS = 1e-6
SEED = 20260328

# q is an integer in [-127, 127]: the kernel's 1024-long sum of squares in another order and
# 1 / sqrt against torch.rsqrt move y by a few FP32 ULP, so y / scale landing within that of a .5
# boundary may round the other way: one step (ATOL 1, RTOL 0). scale is amax / 127 where amax
# carries the same few-ULP error: relative 1e-5 (about 80 FP32 ULP, well under a 1 % scale bug).
TOLERANCES = {"q": (0.0, 1.0), "scale": (1e-5, 0.0)}
RTOL = 1e-5
ATOL = 1.0

CONTRACT = {
    "kind": "quantize",
    "seeds": [20260328, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1.0e4}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "tiny": {"category": "small", "params": {"scale": 1.0e-11}},
        "zero": {"category": "zero", "params": {"zero_rows": [0, 31, 64, 127]}},
    },
    "compare": {
        "q": {"max_steps": {"1": 64}},
        "scale": {"rtol": 1e-5, "atol": 0.0},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [TOKENS, HIDDEN], "dtype": "float32", "is_output": False},
        {"name": "weight", "shape": [1, HIDDEN], "dtype": "float32", "is_output": False},
        {"name": "q", "shape": [TOKENS, HIDDEN], "dtype": "int8", "is_output": True},
        {"name": "scale", "shape": [TOKENS, 1], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(TOKENS, HIDDEN, generator=gen)
    # Rows of very different magnitude (0.01 .. 100): the normalisation must remove it.
    x = x * torch.pow(10.0, torch.rand(TOKENS, 1, generator=gen) * 4.0 - 2.0)
    # Outlier channels in some rows decide amax and so the scale.
    x[::4, 7] *= 40.0
    x[1::8, 900] *= -60.0
    # A constant row: every element normalises to sign * weight.
    x[9, :] = -0.25
    # An all-zero row: amax is clamped to 1e-6, q = 0.
    x[5, :] = 0.0
    x = x * scale
    zero_rows = params.get("zero_rows", [])
    if zero_rows:
        x[list(zero_rows), :] = 0.0
    weight = torch.rand(1, HIDDEN, generator=gen) + 0.5
    return [
        ("x", x),
        ("weight", weight),
        ("q", torch.zeros(TOKENS, HIDDEN, dtype=torch.int8)),
        ("scale", torch.zeros(TOKENS, 1, dtype=torch.float32)),
    ]


def compute_golden(tensors, params=None):
    x = tensors["x"].float()
    weight = tensors["weight"].float().reshape(-1)
    variance = x.pow(2).mean(-1, keepdim=True)
    y = x * torch.rsqrt(variance + EPS) * weight
    amax = y.abs().amax(dim=-1, keepdim=True).clamp(min=1e-6)
    scale = amax / 127.0
    q = torch.round(y / scale).clamp(-127, 127).to(torch.int8)
    tensors["q"][:] = q
    tensors["scale"][:] = scale
