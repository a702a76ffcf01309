"""The task's reference for row_logsumexp (never the agent's): torch.logsumexp over each row."""
import torch

ENTRY = "row_logsumexp"
__outputs__ = ["lse"]

# FP32: 2,048 exponentials summed in any order, one log; the max is exact.
RTOL = 1e-5
ATOL = 1e-5

TOKENS, VOCAB = 512, 2048
SEED = 20261128

CONTRACT = {
    "kind": "reduction",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 100.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "offset": {"category": "asymmetric", "params": {"offset": -80.0}},
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
    logits = torch.randn(TOKENS, VOCAB, generator=gen, dtype=torch.float32) * 4.0 * params.get("scale", 1.0)
    logits = logits + params.get("offset", 0.0)
    return [("logits", logits), ("lse", torch.zeros(TOKENS, 1, dtype=torch.float32))]


def compute_golden(tensors, params=None):
    tensors["lse"][:] = torch.logsumexp(tensors["logits"].float(), dim=-1, keepdim=True)
