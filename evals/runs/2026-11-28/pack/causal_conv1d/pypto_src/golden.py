"""Golden for the port causal_conv1d: inputs, reference computation and tolerances.

out[t, c] = bias[c] + sum_k weight_t[k, c] * x[t - 3 + k, c], x before t = 0 being 0
(original/causal_conv1d.py with weight = weight_t.t(), bias = bias[0]). The reference runs the
original's F.conv1d in FP64 on the FP32 inputs and rounds to FP32 once.
"""
import torch
import torch.nn.functional as F

ENTRY = "causal_conv1d"
__outputs__ = ["out"]

# FP32, four products and four adds per output: error ~ 7 ulp of sum|terms| (cancellation). Base
# inputs x, w ~ N(0,1): errors ~2e-6; large (x10): ~1e-5 absolute where terms cancel.
RTOL = 1e-5
ATOL = 2e-5

TOKENS = 256
CHANNELS = 512
WIDTH = 4
SEED = 20260301

CONTRACT = {
    "kind": "elementwise",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 10.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [TOKENS, CHANNELS], "dtype": "float32", "is_output": False},
        {"name": "weight_t", "shape": [WIDTH, CHANNELS], "dtype": "float32", "is_output": False},
        {"name": "bias", "shape": [1, CHANNELS], "dtype": "float32", "is_output": False},
        {"name": "out", "shape": [TOKENS, CHANNELS], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(TOKENS, CHANNELS, generator=gen, dtype=torch.float32) * scale
    weight_t = torch.randn(WIDTH, CHANNELS, generator=gen, dtype=torch.float32)
    bias = torch.randn(1, CHANNELS, generator=gen, dtype=torch.float32) * scale
    out = torch.zeros(TOKENS, CHANNELS, dtype=torch.float32)
    return [("x", x), ("weight_t", weight_t), ("bias", bias), ("out", out)]


def reference(x, weight_t, bias):
    """The original's computation (F.conv1d, groups = channels, padding 3, tail dropped), FP64."""
    xd, wd, bd = x.double(), weight_t.double().t(), bias.double()[0]
    y = F.conv1d(xd.t().unsqueeze(0), wd.unsqueeze(1), bd, padding=WIDTH - 1, groups=xd.shape[1])
    return y[0, :, : xd.shape[0]].t().float()


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(tensors["x"], tensors["weight_t"], tensors["bias"])
