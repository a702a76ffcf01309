"""The task's reference for sliding_window_attention (never the agent's): causal attention in which query
i sees keys i - 99 .. i, the 4 query heads on the one key/value head, in FP32 from the BF16 inputs,
out in BF16."""
import math

import torch

ENTRY = "sliding_window_attention"
__outputs__ = ["out"]

# BF16 output: two BF16 ULP relative (2 x 2^-7 = 1.6e-2). A port multiplies P (or exp(s - m)) by V
# on the cube in BF16: each weight carries <= 2^-9 relative error, so |err(out)| <= 2^-9 *
# sum_j p_j |v_j| <= 2^-9 * max|v| (~4.5 for randn values) = 8.8e-3 where out itself is near 0 and
# RTOL gives no slack: ATOL 1e-2. Where V is offset ("offset", |out| ~ 4) RTOL covers the same bound.
# Checked by emulating two such ports in torch on every case and seed (BF16 exp(s - m) or BF16 P,
# FP32 accumulation, BF16 out): max |err| 3.1e-2 at |out| ~ 7 ("offset", one BF16 ULP there), 1.6e-2
# elsewhere; largest excess over RTOL * |ref| 4.5e-3, inside ATOL. The same port with a window one
# token wider or narrower, or with the causal mask alone, fails every case (by 4e-2 .. 5.8).
RTOL = 1.6e-2
ATOL = 1e-2

SEQ, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM = 256, 4, 1, 128
SLIDING_WINDOW = 100
GROUP = NUM_HEADS // NUM_KV_HEADS
SEED = 20261128

# "scale" multiplies q and k: 4.0 gives scores of std ~36 (exp overflows without the max
# subtraction), 1e-3 scores of ~1e-6 (each output the plain mean of the values in its window, so a
# window one token too wide or too narrow shows). "ramp" adds to every key a component along the
# queries' shared direction that falls with the key's position: the oldest keys score highest, so a
# key that slipped out of the window and still counts dominates. "v_offset" moves the values off
# zero (an all-positive, mean >> spread output).
CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 4.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "past_heavy": {"category": "neg_inf", "params": {"ramp": 12.0}},
        "offset": {"category": "asymmetric", "params": {"v_offset": 4.0}},
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
    q = torch.randn(SEQ, NUM_HEADS, HEAD_DIM, generator=gen) * 1.5 * scale
    k = torch.randn(SEQ, NUM_KV_HEADS, HEAD_DIM, generator=gen) * 1.5 * scale
    v = torch.randn(SEQ, NUM_KV_HEADS, HEAD_DIM, generator=gen) + params.get("v_offset", 0.0)
    ramp = params.get("ramp", 0.0)
    if ramp:
        u = torch.randn(HEAD_DIM, generator=gen)
        u = u / u.norm()
        q = q + 3.0 * u
        k = k + ramp * (1.0 - torch.arange(SEQ, dtype=torch.float32) / SEQ).reshape(SEQ, 1, 1) * u
    # Two identical query rows more than a window apart: their outputs differ only through the mask.
    q[230] = q[60]
    return [
        ("q", q.reshape(SEQ, NUM_HEADS * HEAD_DIM).to(torch.bfloat16)),
        ("k", k.reshape(SEQ, NUM_KV_HEADS * HEAD_DIM).to(torch.bfloat16)),
        ("v", v.reshape(SEQ, NUM_KV_HEADS * HEAD_DIM).to(torch.bfloat16)),
        ("out", torch.zeros(SEQ, NUM_HEADS * HEAD_DIM, dtype=torch.bfloat16)),
    ]


def reference(q, k, v):
    i = torch.arange(SEQ).reshape(SEQ, 1)
    j = torch.arange(SEQ).reshape(1, SEQ)
    hidden = (j > i) | (j <= i - SLIDING_WINDOW)
    out = torch.empty(SEQ, NUM_HEADS * HEAD_DIM)
    for h in range(NUM_HEADS):
        g = h // GROUP
        qh = q[:, h * HEAD_DIM:(h + 1) * HEAD_DIM].float()
        kh = k[:, g * HEAD_DIM:(g + 1) * HEAD_DIM].float()
        vh = v[:, g * HEAD_DIM:(g + 1) * HEAD_DIM].float()
        probs = torch.softmax(((qh @ kh.T) / math.sqrt(HEAD_DIM)).masked_fill(hidden, float("-inf")), dim=-1)
        out[:, h * HEAD_DIM:(h + 1) * HEAD_DIM] = probs @ vh
    return out.to(torch.bfloat16)


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(tensors["q"], tensors["k"], tensors["v"])
