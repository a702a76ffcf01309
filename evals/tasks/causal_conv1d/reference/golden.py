"""The task's reference for causal_conv1d (never the agent's): torch's grouped conv1d, causal."""
import torch
import torch.nn.functional as F

ENTRY = "causal_conv1d"
__outputs__ = ["out"]

# FP32, a sum of four products and a bias, summed in any order: where the terms cancel, the error is a
# few ULP of the largest term, not of the result (measured: 8 ULP of 500 on the ramp case, 2.4e-4).
RTOL = 1e-5
ATOL = 1e-3

TOKENS, CHANNELS, WIDTH = 256, 512, 4
SEED = 20261128

CONTRACT = {
    "kind": "other",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 100.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-4}},
        "ramp": {"category": "asymmetric", "params": {"ramp": 1.0}},
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
    if "ramp" in params:  # each token a distinct positive level: a tap read from the wrong token shows
        x = x.abs() + torch.arange(TOKENS, dtype=torch.float32)[:, None] * params["ramp"]
    weight_t = torch.randn(WIDTH, CHANNELS, generator=gen, dtype=torch.float32)
    bias = torch.randn(1, CHANNELS, generator=gen, dtype=torch.float32) * scale
    out = torch.zeros(TOKENS, CHANNELS, dtype=torch.float32)
    return [("x", x), ("weight_t", weight_t), ("bias", bias), ("out", out)]


def compute_golden(tensors, params=None):
    x = tensors["x"].float()
    weight = tensors["weight_t"].float().t()
    y = F.conv1d(x.t().unsqueeze(0), weight.unsqueeze(1), tensors["bias"].float()[0], padding=WIDTH - 1,
                 groups=CHANNELS)
    tensors["out"][:] = y[0, :, :TOKENS].t()
