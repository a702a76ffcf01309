"""The task's reference for rope_rotate (never the agent's): Hugging Face's rotate-half RoPE."""
import torch

ENTRY = "rope"
__outputs__ = ["out"]

# FP32, two multiplies and an add per element.
RTOL = 1e-5
ATOL = 1e-5

TOKENS, HEADS, HEAD_DIM = 256, 8, 128
SEED = 20261128

CONTRACT = {
    "kind": "elementwise",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1.0e4}},
        "small": {"category": "small", "params": {"scale": 1.0e-4}},
        "positions": {"category": "asymmetric", "params": {"positions": 4096.0}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "q", "shape": [TOKENS, HEADS * HEAD_DIM], "dtype": "float32", "is_output": False},
        {"name": "cos", "shape": [TOKENS, HEAD_DIM], "dtype": "float32", "is_output": False},
        {"name": "sin", "shape": [TOKENS, HEAD_DIM], "dtype": "float32", "is_output": False},
        {"name": "out", "shape": [TOKENS, HEADS * HEAD_DIM], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    q = torch.randn(TOKENS, HEADS * HEAD_DIM, generator=gen, dtype=torch.float32) * params.get("scale", 1.0)
    # Positions from an offset, so the "positions" case exercises angles far from 0.
    pos = torch.arange(TOKENS, dtype=torch.float32)[:, None] + params.get("positions", 0.0)
    inv_freq = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2, dtype=torch.float32) / HEAD_DIM))
    freqs = torch.cat((pos * inv_freq, pos * inv_freq), dim=-1)
    out = torch.zeros(TOKENS, HEADS * HEAD_DIM, dtype=torch.float32)
    return [("q", q), ("cos", freqs.cos()), ("sin", freqs.sin()), ("out", out)]


def compute_golden(tensors, params=None):
    q = tensors["q"].float().view(TOKENS, HEADS, HEAD_DIM)
    cos = tensors["cos"].float().unsqueeze(1)
    sin = tensors["sin"].float().unsqueeze(1)
    half = HEAD_DIM // 2
    rotated = torch.cat((-q[..., half:], q[..., :half]), dim=-1)
    tensors["out"][:] = (q * cos + rotated * sin).view(TOKENS, HEADS * HEAD_DIM)
