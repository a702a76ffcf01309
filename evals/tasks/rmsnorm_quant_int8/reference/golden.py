"""The task's reference for rmsnorm_quant_int8 (never the agent's): RMSNorm, then per-token symmetric
INT8 quantisation, in FP32 from the same inputs."""
import torch

ENTRY = "rmsnorm_quant"
__outputs__ = ["q", "scale"]

TOKENS, HIDDEN, EPS = 128, 1024, 1e-6
SEED = 20261128

# INT8: the device's rsqrt and the FP32 products may move y across a rounding tie, one step;
# scales: amax / 127 after an rsqrt that may be a few ULP from torch's.
RTOL = 0.0
ATOL = 1.0
TOLERANCES = {"q": (0.0, 1.0), "scale": (1e-4, 1e-7)}

CONTRACT = {
    "kind": "quantize",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1.0e4}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "zero": {"category": "zero", "params": {"zero_rows": 4}},
        "outlier": {"category": "asymmetric", "params": {"outlier": 50.0}},
    },
    # A one-step flip where y * 127 / amax lands within FP32 error of a rounding tie: a handful of the
    # 131,072 values at most; never two steps.
    "compare": {"q": {"max_steps": {"1": 64}}},
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
    x = torch.randn(TOKENS, HIDDEN, generator=gen, dtype=torch.float32) * params.get("scale", 1.0)
    if "outlier" in params:  # one large channel per token, as real activations have
        x[:, 7] *= params["outlier"]
    x[: params.get("zero_rows", 0)] = 0.0  # all-zero tokens: amax is clamped, q is 0
    weight = torch.rand(1, HIDDEN, generator=gen, dtype=torch.float32) + 0.5
    q = torch.zeros(TOKENS, HIDDEN, dtype=torch.int8)
    scale = torch.zeros(TOKENS, 1, dtype=torch.float32)
    return [("x", x), ("weight", weight), ("q", q), ("scale", scale)]


def compute_golden(tensors, params=None):
    x = tensors["x"].float()
    variance = x.pow(2).mean(-1, keepdim=True)
    y = x * torch.rsqrt(variance + EPS) * tensors["weight"].float()
    amax = y.abs().amax(dim=-1, keepdim=True).clamp(min=1e-6)
    tensors["q"][:] = torch.round(y * (127.0 / amax)).clamp(-127, 127).to(torch.int8)
    tensors["scale"][:] = amax / 127.0
