"""The task's reference for embedding_gather (never the agent's): table rows by id, times sqrt(512)."""
import math

import torch

ENTRY = "embed"
__outputs__ = ["out"]

# FP32, one multiply per element: exact up to one rounding of the product.
RTOL = 1e-6
ATOL = 1e-6

TOKENS, VOCAB, HIDDEN = 256, 4096, 512
SEED = 20261128

CONTRACT = {
    "kind": "other",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "ends": {"category": "edge", "params": {"ids": "ends"}},
        "repeats": {"category": "asymmetric", "params": {"ids": "repeats"}},
        "large": {"category": "large", "params": {"scale": 1.0e4}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "ids", "shape": [TOKENS], "dtype": "int32", "is_output": False},
        {"name": "table", "shape": [VOCAB, HIDDEN], "dtype": "float32", "is_output": False},
        {"name": "out", "shape": [TOKENS, HIDDEN], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    ids = torch.randint(0, VOCAB, (TOKENS,), generator=gen, dtype=torch.int32)
    if params.get("ids") == "ends":  # the first and the last row of the table, alternating
        ids = torch.where(torch.arange(TOKENS) % 2 == 0, 0, VOCAB - 1).to(torch.int32)
    elif params.get("ids") == "repeats":  # four ids, each many times
        ids = ids % 4
    table = torch.randn(VOCAB, HIDDEN, generator=gen, dtype=torch.float32) * params.get("scale", 1.0)
    return [("ids", ids), ("table", table), ("out", torch.zeros(TOKENS, HIDDEN, dtype=torch.float32))]


def compute_golden(tensors, params=None):
    tensors["out"][:] = tensors["table"].float()[tensors["ids"].long()] * math.sqrt(HIDDEN)
