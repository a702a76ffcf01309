"""Golden for the port sliding_window_attention: inputs, reference and tolerances.

The reference is original/sliding_window_attention.py (two-pass softmax over the full masked
[seq, seq] scores, FP32 from the BF16 inputs, BF16 out). It never imports pypto.
"""
import torch

ENTRY = "sliding_window_attention"
__outputs__ = ["out"]

# BF16 out: two BF16 ULP relative; P is rounded to BF16 before PV (|err| <= 2^-9 max|v| ~ 9e-3).
RTOL = 1.6e-2
ATOL = 1e-2

SEQ, NUM_HEADS, HEAD_DIM, WINDOW = 256, 4, 128, 100
SEED = 20260314

CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 4.0}},
        "window": {"category": "neg_inf"},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "q", "shape": [SEQ, NUM_HEADS * HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "k", "shape": [SEQ, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "v", "shape": [SEQ, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "out", "shape": [SEQ, NUM_HEADS * HEAD_DIM], "dtype": "bfloat16", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    q = (torch.randn(SEQ, NUM_HEADS * HEAD_DIM, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    k = (torch.randn(SEQ, HEAD_DIM, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    v = torch.randn(SEQ, HEAD_DIM, generator=gen).to(torch.bfloat16)
    # Identical query rows in different tiles: their outputs differ only through the window.
    q[200] = q[10]
    q[150] = q[130]
    out = torch.zeros(SEQ, NUM_HEADS * HEAD_DIM, dtype=torch.bfloat16)
    return [("q", q), ("k", k), ("v", v), ("out", out)]


def reference(q, k, v):
    """original/sliding_window_attention.py, the same operations in the same order."""
    query = q.float().view(SEQ, NUM_HEADS, HEAD_DIM).transpose(0, 1)
    key = k.float().view(SEQ, 1, HEAD_DIM).transpose(0, 1).repeat_interleave(NUM_HEADS, dim=0)
    value = v.float().view(SEQ, 1, HEAD_DIM).transpose(0, 1).repeat_interleave(NUM_HEADS, dim=0)
    scores = torch.matmul(query, key.transpose(1, 2)) * HEAD_DIM**-0.5
    i = torch.arange(SEQ).unsqueeze(1)
    j = torch.arange(SEQ).unsqueeze(0)
    visible = (j <= i) & (j > i - WINDOW)
    scores = scores + torch.zeros(SEQ, SEQ).masked_fill(~visible, float("-inf"))
    o = torch.matmul(torch.softmax(scores, dim=-1, dtype=torch.float32), value)
    return o.transpose(0, 1).reshape(SEQ, NUM_HEADS * HEAD_DIM).to(torch.bfloat16)


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(tensors["q"], tensors["k"], tensors["v"])
