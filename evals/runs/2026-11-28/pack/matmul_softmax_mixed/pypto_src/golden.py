"""Golden for the port matmul_softmax_mixed (original/attn_probs.py).

probs[h*128 + i, :] = softmax(query_h[i] @ key_h^T / 8) over the 256 keys, FP32, from BF16 inputs.
The reference is computed in FP64 from the same BF16-rounded inputs, then rounded to FP32.
"""
import torch

ENTRY = "attn_probs"
__outputs__ = ["probs"]

NUM_HEADS, Q_LEN, KV_LEN, HEAD_DIM = 4, 128, 256, 64
SEED = 20260301

# FP32 output. Products of BF16 values are exact in FP32; the 64-term FP32 sum of the kernel (another
# order than the reference) errs by ~64 * 6e-8 * sum|q_d k_d|, which the softmax turns into a
# relative error of the same size (x 1/8): ~1e-6 at the base scale, ~1e-4 where scores reach ~1e3
# ("large"). RTOL 2e-4 covers it; ATOL 1e-7 is far below the smallest probability we care about
# (a row of 256 equal scores gives 3.9e-3), so an all-zero or wrong output fails.
RTOL = 2e-4
ATOL = 1e-7

CONTRACT = {
    "kind": "softmax",
    "masked": False,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 12.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-2}},
        "ties": {"category": "asymmetric", "params": {"ties": 1}},
        "negative": {"category": "asymmetric", "params": {"scale": 4.0, "offset": 3.0}},
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
    offset = params.get("offset", 0.0)
    q = torch.randn(NUM_HEADS * Q_LEN, HEAD_DIM, generator=gen) * scale
    k = torch.randn(NUM_HEADS * KV_LEN, HEAD_DIM, generator=gen) * scale
    if offset:
        # q positive-shifted, k negative-shifted: all scores strongly negative, large in magnitude.
        q = q + offset * scale
        k = k - offset * scale
    if params.get("ties"):
        # Rows of identical keys (ties for the max), a head whose keys are all equal (uniform rows),
        # and nearly equal keys (differing in the last BF16 bit of one component).
        k[10] = k[3]
        k[KV_LEN + 7] = k[KV_LEN + 200]
        k[2 * KV_LEN : 3 * KV_LEN] = k[2 * KV_LEN]
        k[3 * KV_LEN : 4 * KV_LEN] = k[3 * KV_LEN] + torch.randn(KV_LEN, HEAD_DIM, generator=gen) * 1e-3
        q[5] = 0.0
    q = q.to(torch.bfloat16)
    k = k.to(torch.bfloat16)
    probs = torch.zeros(NUM_HEADS * Q_LEN, KV_LEN, dtype=torch.float32)
    return [("query", q), ("key", k), ("probs", probs)]


def reference(query, key):
    qh = query.double().reshape(NUM_HEADS, Q_LEN, HEAD_DIM)
    kh = key.double().reshape(NUM_HEADS, KV_LEN, HEAD_DIM)
    scores = torch.matmul(qh, kh.transpose(-1, -2)) * HEAD_DIM ** -0.5
    return torch.softmax(scores, dim=-1).float().reshape(NUM_HEADS * Q_LEN, KV_LEN)


def compute_golden(tensors, params=None):
    tensors["probs"][:] = reference(tensors["query"], tensors["key"])
