"""The task's reference for matmul_softmax_mixed (never the agent's): per head, FP32 products of the
BF16 query and key scaled by 1/8, softmax over the keys."""
import torch

ENTRY = "attn_probs"
__outputs__ = ["probs"]

NUM_HEADS, Q_LEN, KV_LEN, HEAD_DIM = 4, 128, 256, 64
SCALING = HEAD_DIM ** -0.5  # 0.125, exact
SEED = 20261128

# BF16 products are exact in FP32; 64 of them summed in the cube's order (not torch's), then one
# exponential and one division. Measured on the naive form (a2a3sim and a5sim): max abs error
# 4.2e-7 over all cases; the relative error reaches 9e-5 only in "large" (scores up to +-176), on
# probabilities so small that ATOL covers them; elsewhere it stays below 6e-7.
RTOL = 1e-4
ATOL = 1e-6

CONTRACT = {
    "kind": "softmax",
    "seeds": [20261128, 11, 4242],
    "masked": False,
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 6.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-2}},
        "offset": {"category": "asymmetric", "params": {"shift": 4.0}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "query", "shape": [NUM_HEADS * Q_LEN, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "key", "shape": [NUM_HEADS * KV_LEN, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "probs", "shape": [NUM_HEADS * Q_LEN, KV_LEN], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    # "offset": query and key share a component `shift` in every element, so every score of a row
    # is near +shift^2 * 64 / 8 plus a spread: large positive scores, none small.
    shift = params.get("shift", 0.0)
    query = (torch.randn(NUM_HEADS * Q_LEN, HEAD_DIM, generator=gen) * scale + shift).bfloat16()
    key = (torch.randn(NUM_HEADS * KV_LEN, HEAD_DIM, generator=gen) * scale + shift).bfloat16()
    probs = torch.zeros(NUM_HEADS * Q_LEN, KV_LEN, dtype=torch.float32)
    return [("query", query), ("key", key), ("probs", probs)]


def compute_golden(tensors, params=None):
    q = tensors["query"].float().reshape(NUM_HEADS, Q_LEN, HEAD_DIM)
    k = tensors["key"].float().reshape(NUM_HEADS, KV_LEN, HEAD_DIM)
    scores = torch.matmul(q, k.transpose(-1, -2)) * SCALING
    tensors["probs"][:] = torch.softmax(scores, dim=-1, dtype=torch.float32).reshape(NUM_HEADS * Q_LEN, KV_LEN)
