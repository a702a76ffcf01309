"""The task's reference for linear_gelu (never the agent's): FP32 matmul of the BF16 inputs, bias,
GELU with torch's tanh."""
import math

import torch

ENTRY = "linear_gelu"
__outputs__ = ["out"]

# BF16 inputs, FP32 accumulation over 512 products in the cube's order (not torch's), then an
# exp-based tanh: a few ULP of the accumulated sum and of the exponential.
RTOL = 1e-3
ATOL = 1e-3

TOKENS, IN_FEATURES, OUT_FEATURES = 128, 512, 1024
SEED = 20261128

CONTRACT = {
    "kind": "matmul",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 8.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "negative": {"category": "asymmetric", "params": {"bias_shift": -6.0}},
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
    x = (torch.randn(TOKENS, IN_FEATURES, generator=gen) * scale).bfloat16()
    weight = (torch.randn(OUT_FEATURES, IN_FEATURES, generator=gen) / math.sqrt(IN_FEATURES)).bfloat16()
    bias = torch.randn(1, OUT_FEATURES, generator=gen, dtype=torch.float32) + params.get("bias_shift", 0.0)
    out = torch.zeros(TOKENS, OUT_FEATURES, dtype=torch.float32)
    return [("x", x), ("weight", weight), ("bias", bias), ("out", out)]


def compute_golden(tensors, params=None):
    h = tensors["x"].float() @ tensors["weight"].float().t() + tensors["bias"].float()
    tensors["out"][:] = 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h.pow(3))))
