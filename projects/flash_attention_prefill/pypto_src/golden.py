"""Golden for the port flash_attention_prefill: inputs, reference computation and tolerances.

This module is the port's oracle. port-check and the golden runner read:
  ENTRY                 the @pl.jit entry to compile and run (in orchestration.py)
  __outputs__           the tensors compared with the reference (each is pl.Out/pl.InOut on the entry)
  RTOL, ATOL            comparison tolerances, torch.allclose semantics
  build_tensor_specs()  every argument of the entry in order, with the fields of pypto-lib's
                        TensorSpec: name, shape, dtype (torch dtype name), is_output
  generate_inputs()     [(name, tensor)] in the entry's argument order; outputs start as zeros
  compute_golden()      writes the expected outputs into `tensors` in place
The reference is original/flash_attention_prefill.py: the two-pass causal softmax over the full
[seq, seq] score matrix, in FP32 from the same BF16 inputs. It never imports pypto.
"""
import math

import torch

ENTRY = "flash_attention_prefill"
__outputs__ = ["out"]

# BF16 output: two BF16 ULP relative (2 x 2^-8 = 7.8e-3, rounded up to pypto's 1.6e-2 for BF16).
# The port also rounds P to BF16 before the PV matmul (as every BF16 flash attention does): each
# weight carries <= 2^-9 relative error, so |err(out)| <= 2^-9 * sum_j p_j |v_j| <= 2^-9 * max|v|
# (~4.5 for these inputs) = 8.8e-3 in the worst case, where out itself is near 0 and RTOL gives
# no slack. ATOL 1e-2 covers that bound. Measured by emulating the port's arithmetic in torch
# (tiled blocks, BF16 P, FP32 accumulation; PORTING.md section 3): max |err| 7.8e-3 (one BF16
# rounding step at |out| ~ 2, inside RTOL), largest excess over RTOL * |ref| 1.2e-3.
RTOL = 1.6e-2
ATOL = 1e-2

NUM_HEADS = 2
SEQ = 512
HEAD_DIM = 128
Q_TILE = 64
KV_BLOCK = 64
SEED = 20260314

# The correctness contract (docs/contract.md): every case under every seed; "scale" multiplies q and k
# (large: scores of std ~36, where a lost max subtraction overflows exp). Every case is causal: the
# masked scores are the "neg_inf" category (MASKED in the bias tile).
CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 4.0}},
        "causal": {"category": "neg_inf"},
    },
}
MASKED = -1.0e30


def build_tensor_specs(params=None):
    rows = NUM_HEADS * SEQ
    return [
        {"name": "q", "shape": [rows, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "k", "shape": [rows, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "v", "shape": [rows, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "causal_bias", "shape": [2 * Q_TILE, KV_BLOCK], "dtype": "float32", "is_output": False},
        {"name": "out", "shape": [rows, HEAD_DIM], "dtype": "bfloat16", "is_output": True},
    ]


def causal_bias_tile():
    """Additive masks of a key block, stacked: rows 0..63 zeros (a block below the diagonal), rows
    64..127 the diagonal block's cut (0 where key <= query, MASKED above)."""
    future = torch.triu(torch.ones(Q_TILE, KV_BLOCK, dtype=torch.bool), diagonal=1)
    return torch.cat([torch.zeros(Q_TILE, KV_BLOCK), torch.zeros(Q_TILE, KV_BLOCK).masked_fill(future, MASKED)])


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    rows = NUM_HEADS * SEQ
    # Scores of std ~2.25 after scaling: a missing max subtraction or rescale shows at once.
    q = (torch.randn(rows, HEAD_DIM, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    k = (torch.randn(rows, HEAD_DIM, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    v = torch.randn(rows, HEAD_DIM, generator=gen).to(torch.bfloat16)
    # Identical query rows in different tiles: their outputs differ only through causality.
    q[200] = q[10]
    q[SEQ + 300] = q[SEQ + 5]
    out = torch.zeros(rows, HEAD_DIM, dtype=torch.bfloat16)
    return [("q", q), ("k", k), ("v", v), ("causal_bias", causal_bias_tile()), ("out", out)]


def reference(q, k, v):
    """[heads * seq, head_dim] BF16 in -> the same out, the two-pass formula of original/."""
    qh = q.float().reshape(NUM_HEADS, SEQ, HEAD_DIM)
    kh = k.float().reshape(NUM_HEADS, SEQ, HEAD_DIM)
    vh = v.float().reshape(NUM_HEADS, SEQ, HEAD_DIM)
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(HEAD_DIM)
    future = torch.triu(torch.ones(SEQ, SEQ, dtype=torch.bool), diagonal=1)
    probs = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    return (probs @ vh).reshape(NUM_HEADS * SEQ, HEAD_DIM).to(torch.bfloat16)


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(tensors["q"], tensors["k"], tensors["v"])
