"""The task's reference for decoder_attention_block (never the agent's): the attention sub-layer of a
Llama-style decoder layer (RMSNorm, Q/K/V projections, rotate-half RoPE, causal GQA attention with 4
query heads on 2 KV heads, output projection, residual), in FP32 from the BF16 inputs, h in BF16."""
import math

import torch

ENTRY = "decoder_attention_block"
__outputs__ = ["h"]

# BF16 output, two BF16 ULP relative (2 x 2^-7 = 1.6e-2), plus an absolute 5e-2. The reference keeps
# every intermediate in FP32; a port cannot: the cube takes BF16 operands, so the normalised x, the
# roped q and k, v, P (or exp(s - m)) and the attention output are rounded to BF16 (2^-9 relative
# each) before their matmuls, and Hugging Face's own BF16 module (the original) rounds after every
# op. Those roundings reach h through the softmax, whose change is about |q| |k| 2^-9 / 8 in a score
# (~0.02 here), and through o_proj's sum of 256 products; where h is near 0, RTOL gives no slack.
# Checked by running the original itself (BF16 throughout) and two cube-style ports emulated in
# torch (FP32 vector math, BF16 cube operands; P rounded to BF16, or exp(s - m) rounded and divided
# after PV) on every case and seed: largest excess over RTOL * |ref| 3.1e-2 (the original,
# future_heavy), 1.6e-2 (the emulated ports); largest |err| 2.0 at |h| ~ 400 ("large", one ULP).
# Scores sharper than these (the norm weight x 1.5, scores of std 5) are not in the contract: with
# q and k computed in BF16 the block is ill-conditioned there, the original itself then misses the
# FP32 reference by 0.12 where |h| ~ 7.
RTOL = 1.6e-2
ATOL = 5e-2

SEQ, HIDDEN, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM = 64, 256, 4, 2, 64
GROUP = NUM_HEADS // NUM_KV_HEADS
EPS = 1e-6
ROPE_THETA = 10000.0
SEED = 20261128

# "x_scale" multiplies the activations: 100 gives sums of squares ~2.6e6 per token (the norm must
# take the mean and the root of them in FP32, the residual keeps the large x), 1e-3 puts the mean
# square at ~1e-6, the size of eps (a port that drops or misplaces eps is off by up to 1/sqrt(2)),
# while the attention's contribution (O(1)) dominates the residual. "ramp" (see generate_inputs)
# makes the scores rise towards the future keys, so a key that leaks through the causal mask weighs.
CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20261128, 7, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"x_scale": 100.0}},
        "tiny": {"category": "small", "params": {"x_scale": 1.0e-3}},
        "future_heavy": {"category": "neg_inf", "params": {"ramp": 3.0}},
    },
}


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


def rope_tables():
    inv_freq = 1.0 / (ROPE_THETA ** (torch.arange(0, HEAD_DIM, 2, dtype=torch.float32) / HEAD_DIM))
    freqs = torch.outer(torch.arange(SEQ, dtype=torch.float32), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    x = torch.randn(SEQ, HIDDEN, generator=gen) * params.get("x_scale", 1.0)
    norm_w = (1.0 + 0.1 * torch.randn(1, HIDDEN, generator=gen)) * params.get("w_scale", 1.0)
    # q and k of std ~1.5 per element from a unit-RMS input (scores of std ~2.25 at w_scale 1).
    wq = torch.randn(NUM_HEADS * HEAD_DIM, HIDDEN, generator=gen) * (1.5 / math.sqrt(HIDDEN))
    wk = torch.randn(NUM_KV_HEADS * HEAD_DIM, HIDDEN, generator=gen) * (1.5 / math.sqrt(HIDDEN))
    wv = torch.randn(NUM_KV_HEADS * HEAD_DIM, HIDDEN, generator=gen) / math.sqrt(HIDDEN)
    wo = torch.randn(HIDDEN, NUM_HEADS * HEAD_DIM, generator=gen) / math.sqrt(NUM_HEADS * HEAD_DIM)
    ramp = params.get("ramp", 0.0)
    if ramp:
        # Token t gets ramp * t / SEQ along a direction u of the hidden space, and every q and k head
        # reads u into its dimension 31 (RoPE's slowest pair, turned by < 0.01 rad over 64 tokens):
        # the scores rise towards the future keys, so a key past the diagonal that leaks through the
        # mask takes a large share of the softmax.
        u = torch.randn(HIDDEN, generator=gen)
        u = u / u.norm() * math.sqrt(HIDDEN)
        x = x + ramp * (torch.arange(SEQ, dtype=torch.float32) / SEQ).reshape(SEQ, 1) * u
        wq[31::HEAD_DIM] += 8.0 * u / HIDDEN
        wk[31::HEAD_DIM] += 8.0 * u / HIDDEN
    cos, sin = rope_tables()
    bf = torch.bfloat16
    return [
        ("x", x.to(bf)),
        ("norm_w", norm_w.to(bf)),
        ("wq", wq.to(bf)),
        ("wk", wk.to(bf)),
        ("wv", wv.to(bf)),
        ("wo", wo.to(bf)),
        ("cos", cos.to(bf)),
        ("sin", sin.to(bf)),
        ("h", torch.zeros(SEQ, HIDDEN, dtype=bf)),
    ]


def rotate_half(t):
    half = t.shape[-1] // 2
    return torch.cat((-t[..., half:], t[..., :half]), dim=-1)


def reference(x, norm_w, wq, wk, wv, wo, cos, sin):
    xf = x.float()
    xn = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS) * norm_w.float()
    q = xn @ wq.float().T
    k = xn @ wk.float().T
    v = xn @ wv.float().T
    cf, sf = cos.float(), sin.float()
    future = torch.ones(SEQ, SEQ, dtype=torch.bool).triu(1)
    attn = torch.empty(SEQ, NUM_HEADS * HEAD_DIM)
    for hd in range(NUM_HEADS):
        g = hd // GROUP
        qh = q[:, hd * HEAD_DIM:(hd + 1) * HEAD_DIM]
        kh = k[:, g * HEAD_DIM:(g + 1) * HEAD_DIM]
        vh = v[:, g * HEAD_DIM:(g + 1) * HEAD_DIM]
        qh = qh * cf + rotate_half(qh) * sf
        kh = kh * cf + rotate_half(kh) * sf
        scores = (qh @ kh.T) / math.sqrt(HEAD_DIM)
        probs = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        attn[:, hd * HEAD_DIM:(hd + 1) * HEAD_DIM] = probs @ vh
    return (xf + attn @ wo.float().T).to(torch.bfloat16)


def compute_golden(tensors, params=None):
    t = tensors
    t["h"][:] = reference(t["x"], t["norm_w"], t["wq"], t["wk"], t["wv"], t["wo"], t["cos"], t["sin"])
