"""Golden for the port row_logsumexp: inputs, reference and tolerances.

The reference is original/row_logsumexp.py's contract: torch.logsumexp(logits, dim=-1, keepdim=True)
in FP32 (plain torch, never pypto).
"""
import torch

ENTRY = "row_logsumexp"
__outputs__ = ["lse"]

# FP32 throughout: the sum of 2048 exponentials and the log add a few ULP relative to lse.
RTOL = 1e-5
ATOL = 1e-5

TOKENS = 512
VOCAB = 2048
SEED = 20260301

# "scale" multiplies the logits, "offset" shifts them all (only the max shift keeps exp finite).
CONTRACT = {
    "kind": "reduction",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1000.0}},
        "huge": {"category": "large", "params": {"scale": 1.0e36}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "offset": {"category": "asymmetric", "params": {"offset": 200.0}},
        "negoffset": {"category": "asymmetric", "params": {"offset": -500.0}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "logits", "shape": [TOKENS, VOCAB], "dtype": "float32", "is_output": False},
        {"name": "lse", "shape": [TOKENS, 1], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    logits = torch.randn(TOKENS, VOCAB, generator=gen, dtype=torch.float32) * 4.0 * scale
    logits = logits + params.get("offset", 0.0)
    lse = torch.zeros(TOKENS, 1, dtype=torch.float32)
    return [("logits", logits), ("lse", lse)]


def compute_golden(tensors, params=None):
    tensors["lse"][:] = torch.logsumexp(tensors["logits"].float(), dim=-1, keepdim=True)
