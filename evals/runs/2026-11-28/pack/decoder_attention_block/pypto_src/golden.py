"""Golden for the port decoder_attention_block: inputs, reference computation and tolerances.

The reference is original/decoder_attention_block.py itself (Hugging Face's Llama attention
sub-layer in BF16: RMSNorm in FP32, bias-free projections, rotate-half RoPE, causal GQA with the
softmax in FP32, o_proj, residual add).
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "original"))
from decoder_attention_block import (  # noqa: E402
    HEAD_DIM,
    HIDDEN,
    NUM_HEADS,
    NUM_KV_HEADS,
    SEQ,
    decoder_attention_block,
    rope_tables,
)

ENTRY = "decoder_attention_block"
__outputs__ = ["h"]

# BF16 output: two BF16 ULP relative (pypto's 1.6e-2); ATOL for the residual sums that cancel.
RTOL = 1.6e-2
ATOL = 1.6e-2
SEED = 20260501

CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        # activations far from unit size: the norm must make them unit size again
        "large": {"category": "large", "params": {"x_scale": 1.0e4}},
        # so small that eps matters in the norm
        "small": {"category": "small", "params": {"x_scale": 1.0e-4}},
        # sharp scores that favour the future tokens: a missing or leaky mask shows at once
        "causal": {"category": "neg_inf", "params": {"future": 1}},
    },
    "compare": {
        "h": {"rtol": 1.6e-2, "atol": 1.6e-2, "pass_rate": 0.999},
    },
}


def build_tensor_specs(params=None):
    def spec(name, shape, out=False):
        return {"name": name, "shape": shape, "dtype": "bfloat16", "is_output": out}

    return [
        spec("x", [SEQ, HIDDEN]),
        spec("norm_w", [1, HIDDEN]),
        spec("wq", [NUM_HEADS * HEAD_DIM, HIDDEN]),
        spec("wk", [NUM_KV_HEADS * HEAD_DIM, HIDDEN]),
        spec("wv", [NUM_KV_HEADS * HEAD_DIM, HIDDEN]),
        spec("wo", [HIDDEN, NUM_HEADS * HEAD_DIM]),
        spec("cos", [SEQ, HEAD_DIM]),
        spec("sin", [SEQ, HEAD_DIM]),
        spec("h", [SEQ, HIDDEN], out=True),
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(int(params.get("seed", SEED)))
    x_scale = float(params.get("x_scale", 1.0))
    x = torch.randn(SEQ, HIDDEN, generator=gen) * x_scale
    norm_w = 1.0 + 0.1 * torch.randn(1, HIDDEN, generator=gen)
    wq = torch.randn(NUM_HEADS * HEAD_DIM, HIDDEN, generator=gen) / HIDDEN**0.5
    wk = torch.randn(NUM_KV_HEADS * HEAD_DIM, HIDDEN, generator=gen) / HIDDEN**0.5
    wv = torch.randn(NUM_KV_HEADS * HEAD_DIM, HIDDEN, generator=gen) / HIDDEN**0.5
    wo = torch.randn(HIDDEN, NUM_HEADS * HEAD_DIM, generator=gen) / HIDDEN**0.5
    cos, sin = rope_tables(SEQ)
    if params.get("future"):
        # every token's x carries a growing share of one direction d; q and k project d onto
        # the same vector, so the later (future) keys score highest for every query
        d = torch.randn(HIDDEN, generator=gen)
        d = d / d.norm() * HIDDEN**0.5
        t = torch.arange(SEQ, dtype=torch.float32)[:, None] / SEQ
        x = 0.3 * x + 3.0 * t * d[None, :]
        u = torch.randn(HEAD_DIM, generator=gen)
        for hh in range(NUM_HEADS):
            wq[hh * HEAD_DIM : (hh + 1) * HEAD_DIM] += 0.5 * torch.outer(u, d) / HIDDEN
        for hh in range(NUM_KV_HEADS):
            wk[hh * HEAD_DIM : (hh + 1) * HEAD_DIM] += 0.5 * torch.outer(u, d) / HIDDEN
        # no rotation: positions do not blur the preference for the future
        cos = torch.ones_like(cos)
        sin = torch.zeros_like(sin)
    b = lambda tt: tt.to(torch.bfloat16).contiguous()  # noqa: E731
    h = torch.zeros(SEQ, HIDDEN, dtype=torch.bfloat16)
    return [
        ("x", b(x)), ("norm_w", b(norm_w)), ("wq", b(wq)), ("wk", b(wk)), ("wv", b(wv)),
        ("wo", b(wo)), ("cos", b(cos)), ("sin", b(sin)), ("h", h),
    ]


def compute_golden(tensors, params=None):
    t = tensors
    t["h"][:] = decoder_attention_block(t["x"], t["norm_w"], t["wq"], t["wk"], t["wv"], t["wo"], t["cos"], t["sin"])
