"""Golden for the port attention_prefill: inputs, reference and tolerances.

The reference is original/attention_prefill.py's formula (repeat_kv, scaled scores, causal -inf
mask, FP32 softmax, P @ V, BF16 out), restated here (the port never imports its original).
"""
import math

import torch

ENTRY = "attention_prefill"
__outputs__ = ["out"]

# BF16 out: two BF16 ULP relative; P is rounded to BF16 before P @ V (|err| <= 2^-9 * max|v|).
RTOL = 1.6e-2
ATOL = 1e-2

SEQ, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM = 256, 4, 2, 64
SEED = 20260314

CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 8.0}},
        "huge": {"category": "large", "params": {"scale": 40.0}},
        "causal": {"category": "neg_inf"},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "q", "shape": [SEQ, NUM_HEADS * HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "k", "shape": [SEQ, NUM_KV_HEADS * HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "v", "shape": [SEQ, NUM_KV_HEADS * HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "out", "shape": [SEQ, NUM_HEADS * HEAD_DIM], "dtype": "bfloat16", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    q = (torch.randn(SEQ, NUM_HEADS * HEAD_DIM, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    k = (torch.randn(SEQ, NUM_KV_HEADS * HEAD_DIM, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    v = torch.randn(SEQ, NUM_KV_HEADS * HEAD_DIM, generator=gen).to(torch.bfloat16)
    q[200] = q[10]
    out = torch.zeros(SEQ, NUM_HEADS * HEAD_DIM, dtype=torch.bfloat16)
    return [("q", q), ("k", k), ("v", v), ("out", out)]


def reference(q, k, v):
    seq = q.shape[0]
    query = q.float().view(seq, NUM_HEADS, HEAD_DIM).transpose(0, 1)
    key = k.float().view(seq, NUM_KV_HEADS, HEAD_DIM).transpose(0, 1)
    value = v.float().view(seq, NUM_KV_HEADS, HEAD_DIM).transpose(0, 1)
    rep = NUM_HEADS // NUM_KV_HEADS
    key = key.repeat_interleave(rep, dim=0)
    value = value.repeat_interleave(rep, dim=0)
    scores = query @ key.transpose(1, 2) / math.sqrt(HEAD_DIM)
    future = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)
    probs = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    return (probs @ value).transpose(0, 1).reshape(seq, NUM_HEADS * HEAD_DIM).to(torch.bfloat16)


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(tensors["q"], tensors["k"], tensors["v"])
