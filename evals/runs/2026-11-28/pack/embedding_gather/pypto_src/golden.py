"""Golden for the port embedding_gather: out = table[ids] * sqrt(512) (original/embed.py).

ids INT32 [256] in [0, 4096), repeats allowed; table FP32 [4096, 512]; out FP32 [256, 512].
Cases: random ids; ids hitting the first and last rows; one id repeated everywhere; large and
small table magnitudes. A gather plus one FP32 multiply: exact up to one rounding.
"""
import math

import torch

ENTRY = "embed"
__outputs__ = ["out"]

RTOL = 1e-6
ATOL = 1e-6

TOKENS, VOCAB, HIDDEN = 256, 4096, 512
SEED = 20260301

CONTRACT = {
    "kind": "other",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "edge_rows": {"category": "edge", "params": {"ids": "edges"}},
        "repeat": {"category": "asymmetric", "params": {"ids": "repeat"}},
        "large": {"category": "large", "params": {"scale": 1.0e4}},
        "small": {"category": "small", "params": {"scale": 1.0e-4}},
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
    scale = params.get("scale", 1.0)
    mode = params.get("ids", "random")
    ids = torch.randint(0, VOCAB, (TOKENS,), generator=gen, dtype=torch.int32)
    if mode == "edges":
        ids[0::2] = 0
        ids[1::2] = VOCAB - 1
        ids[5] = 1
        ids[7] = VOCAB - 2
    elif mode == "repeat":
        ids[:] = int(ids[0])
        ids[-1] = VOCAB - 1
    table = torch.randn(VOCAB, HIDDEN, generator=gen, dtype=torch.float32) * scale
    out = torch.zeros(TOKENS, HIDDEN, dtype=torch.float32)
    return [("ids", ids), ("table", table), ("out", out)]


def compute_golden(tensors, params=None):
    tensors["out"][:] = tensors["table"][tensors["ids"].long()] * math.sqrt(HIDDEN)
