"""The task's reference for attention_prefill (never the agent's): causal GQA attention over the whole
prompt, each query head with its key/value head h // 2, in FP32 from the BF16 inputs, out in BF16."""
import math

import torch

ENTRY = "attention_prefill"
__outputs__ = ["out"]

# BF16 output: two BF16 ULP relative (2 x 2^-7 = 1.6e-2). A port multiplies P (or exp(s - m)) by V
# on the cube in BF16: each weight carries <= 2^-9 relative error, so |err(out)| <= 2^-9 *
# sum_j p_j |v_j| <= 2^-9 * max|v| (~4.5 for randn values) = 8.8e-3 where out itself is near 0 and
# RTOL gives no slack: ATOL 1e-2. Where V is offset ("offset", |out| ~ 4) RTOL covers the same bound.
# Checked by emulating two such ports in torch on every case and seed (BF16 exp(s - m) or BF16 P,
# FP32 accumulation, BF16 out): max |err| 3.1e-2 at |out| ~ 7 ("offset", one BF16 ULP there), 1.6e-2
# elsewhere; largest excess over RTOL * |ref| 3.1e-3, inside ATOL.
RTOL = 1.6e-2
ATOL = 1e-2

SEQ, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM = 256, 4, 2, 64
GROUP = NUM_HEADS // NUM_KV_HEADS
SEED = 20261128

# "scale" multiplies q and k: 4.0 gives scores of std ~36 (exp overflows without the max
# subtraction), 1e-3 scores of ~1e-6 (a uniform average of the visible values). "ramp" adds to every
# key a component along the queries' shared direction that grows with the key's position: the
# scores rise towards the future, so a key past the diagonal that leaks through the mask dominates.
# "v_offset" moves the values off zero (an all-positive, mean >> spread output).
CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 4.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "future_heavy": {"category": "neg_inf", "params": {"ramp": 12.0}},
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
        k = k + ramp * (torch.arange(SEQ, dtype=torch.float32) / SEQ).reshape(SEQ, 1, 1) * u
    # Two identical query rows far apart: their outputs differ only through the causal mask.
    q[200] = q[17]
    return [
        ("q", q.reshape(SEQ, NUM_HEADS * HEAD_DIM).to(torch.bfloat16)),
        ("k", k.reshape(SEQ, NUM_KV_HEADS * HEAD_DIM).to(torch.bfloat16)),
        ("v", v.reshape(SEQ, NUM_KV_HEADS * HEAD_DIM).to(torch.bfloat16)),
        ("out", torch.zeros(SEQ, NUM_HEADS * HEAD_DIM, dtype=torch.bfloat16)),
    ]


def reference(q, k, v):
    out = torch.empty(SEQ, NUM_HEADS * HEAD_DIM)
    future = torch.ones(SEQ, SEQ, dtype=torch.bool).triu(1)
    for h in range(NUM_HEADS):
        g = h // GROUP
        qh = q[:, h * HEAD_DIM:(h + 1) * HEAD_DIM].float()
        kh = k[:, g * HEAD_DIM:(g + 1) * HEAD_DIM].float()
        vh = v[:, g * HEAD_DIM:(g + 1) * HEAD_DIM].float()
        scores = (qh @ kh.T) / math.sqrt(HEAD_DIM)
        probs = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        out[:, h * HEAD_DIM:(h + 1) * HEAD_DIM] = probs @ vh
    return out.to(torch.bfloat16)


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(tensors["q"], tensors["k"], tensors["v"])
