"""Golden for the port linear_gelu: inputs, reference computation and tolerances.

The reference is original/linear_gelu.py exactly: h = x @ weight^T + bias in FP32 from the BF16
inputs, out = 0.5 h (1 + tanh(sqrt(2/pi) (h + 0.044715 h^3))), FP32.
"""
import math

import torch

ENTRY = "linear_gelu"
__outputs__ = ["out"]

# FP32 out of a K = 512 dot product of BF16 values (the products are exact in FP32; only the
# summation order differs, ~ sqrt(K) * 6e-8 relative to the sum of |terms|), then GELU, which the
# kernel evaluates as h / (1 + exp(-2z)) (the same function: 0.5 (1 + tanh z) = sigmoid(2z)),
# a few FP32 ULP from torch's tanh form. RTOL 1e-4 / ATOL 1e-4 (|out| ~ 1, max ~ 5 at base).
RTOL = 1e-4
ATOL = 1e-4

TOKENS, IN_FEATURES, OUT_FEATURES = 128, 512, 1024
SEED = 20260301

CONTRACT = {
    "kind": "mlp",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 8.0}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [TOKENS, IN_FEATURES], "dtype": "bfloat16", "is_output": False},
        {"name": "weight", "shape": [OUT_FEATURES, IN_FEATURES], "dtype": "bfloat16", "is_output": False},
        {"name": "bias", "shape": [1, OUT_FEATURES], "dtype": "float32", "is_output": False},
        {"name": "out", "shape": [TOKENS, OUT_FEATURES], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(TOKENS, IN_FEATURES, generator=gen)
    x[:, 7] *= 8.0          # an outlier channel
    x = x * scale
    w = torch.randn(OUT_FEATURES, IN_FEATURES, generator=gen) / math.sqrt(IN_FEATURES)
    bias = torch.randn(1, OUT_FEATURES, generator=gen)
    return [
        ("x", x.to(torch.bfloat16)),
        ("weight", w.to(torch.bfloat16)),
        ("bias", bias),
        ("out", torch.zeros(TOKENS, OUT_FEATURES, dtype=torch.float32)),
    ]


def compute_golden(tensors, params=None):
    h = tensors["x"].float() @ tensors["weight"].float().t() + tensors["bias"][0]
    tensors["out"][:] = 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h.pow(3))))
