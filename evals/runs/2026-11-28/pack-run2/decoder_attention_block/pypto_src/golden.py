"""Golden for the port decoder_attention_block: inputs, reference and tolerances.

The reference is original/decoder_attention_block.py itself (the Hugging Face module in BF16),
loaded by path. Plain torch, never imports pypto.
"""
import importlib.util
import math
import os

import torch

ENTRY = "decoder_attention_block"
__outputs__ = ["h"]

# BF16 output; two BF16 ULP relative, plus a small absolute floor for outputs near 0 where the
# BF16 intermediates (q, k, v, probs, attention output) of the reference round differently.
RTOL = 1.6e-2
ATOL = 2e-2

SEQ, HIDDEN, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM = 64, 256, 4, 2, 64
SEED = 20260301

CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 100.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-4}},
        "causal": {"category": "neg_inf", "params": {"future": 1.0}},
    },
}


def _original():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "original", "decoder_attention_block.py")
    spec = importlib.util.spec_from_file_location("decoder_attention_block_original", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [SEQ, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "norm_w", "shape": [1, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "wq", "shape": [NUM_HEADS * HEAD_DIM, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "wk", "shape": [NUM_KV_HEADS * HEAD_DIM, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "wv", "shape": [NUM_KV_HEADS * HEAD_DIM, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "wo", "shape": [HIDDEN, NUM_HEADS * HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "cos", "shape": [SEQ, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "sin", "shape": [SEQ, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "h", "shape": [SEQ, HIDDEN], "dtype": "bfloat16", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(SEQ, HIDDEN, generator=gen)
    # Rows of different size, an outlier channel, a constant row.
    x = x * torch.pow(10.0, torch.rand(SEQ, 1, generator=gen) * 2.0 - 1.0)
    x[:, 3] *= 8.0
    x[9, :] = 0.5
    x = x * scale
    norm_w = 1.0 + 0.1 * torch.randn(1, HIDDEN, generator=gen)
    wq = torch.randn(NUM_HEADS * HEAD_DIM, HIDDEN, generator=gen) / HIDDEN**0.5
    wk = torch.randn(NUM_KV_HEADS * HEAD_DIM, HIDDEN, generator=gen) / HIDDEN**0.5
    wv = torch.randn(NUM_KV_HEADS * HEAD_DIM, HIDDEN, generator=gen) / HIDDEN**0.5
    wo = torch.randn(HIDDEN, NUM_HEADS * HEAD_DIM, generator=gen) / HIDDEN**0.5
    if params.get("future", 0.0):
        # Scores that favour the future: make k aligned with q (sharper scores), and give the later
        # tokens larger norms so that, unmasked, each token would attend to the last ones.
        wk[:, :] = wq[: NUM_KV_HEADS * HEAD_DIM, :] * 3.0
        ramp = torch.linspace(0.2, 3.0, SEQ).unsqueeze(1)
        x = x / x.pow(2).mean(-1, keepdim=True).sqrt() * ramp
    ang = 1.0 / (10000.0 ** (torch.arange(0, HEAD_DIM, 2, dtype=torch.float32) / HEAD_DIM))
    freqs = torch.outer(torch.arange(SEQ, dtype=torch.float32), ang)
    emb = torch.cat((freqs, freqs), dim=-1)
    bf = torch.bfloat16
    return [
        ("x", x.to(bf)),
        ("norm_w", norm_w.to(bf)),
        ("wq", wq.to(bf)),
        ("wk", wk.to(bf)),
        ("wv", wv.to(bf)),
        ("wo", wo.to(bf)),
        ("cos", emb.cos().to(bf)),
        ("sin", emb.sin().to(bf)),
        ("h", torch.zeros(SEQ, HIDDEN, dtype=bf)),
    ]


def compute_golden(tensors, params=None):
    mod = _original()
    t = tensors
    tensors["h"][:] = mod.decoder_attention_block(
        t["x"], t["norm_w"], t["wq"], t["wk"], t["wv"], t["wo"], t["cos"], t["sin"]
    )


if __name__ == "__main__":
    for case, c in CONTRACT["cases"].items():
        p = dict(c.get("params", {}), seed=SEED)
        ts = dict(generate_inputs(p))
        compute_golden(ts, p)
        print(case, ts["h"].float().abs().mean().item(), ts["h"].float().abs().max().item())
