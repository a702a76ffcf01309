"""Orchestration of the naive port of flash_attention_prefill: per head and 32-query row tile, the
original's operations one kernel each over full 512-key score rows, every intermediate (S, scaled
S, masked S, m, shifted S, exp, l, P FP32, P BF16, O FP32) through GM.

Per row tile: qk, scale, sub, exp, div, cast P, pv, cast out once; mask, row max and row sum
once per 16-row half (their second [.., 512] tile would not fit at 32 rows with room to spare):
14 dispatches, 32 row tiles (2 heads x 16).
"""
import pypto.language as pl
from incore import (
    ATTN_SCALE,
    RED_TILE,
    ROW_TILE,
    cast_out_k,
    cast_p_k,
    div_k,
    exp_k,
    mask_k,
    pv_k,
    qk_k,
    row_max_k,
    row_sum_k,
    scale_k,
    sub_k,
)

NUM_HEADS = 2
SEQ = 512
HEAD_DIM = 128


@pl.jit
def flash_attention_prefill(
    q: pl.Tensor[[1024, 128], pl.BF16],
    k: pl.Tensor[[1024, 128], pl.BF16],
    v: pl.Tensor[[1024, 128], pl.BF16],
    causal_bias: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[1024, 128], pl.BF16]],
):
    s = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.FP32)
    s_scaled = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.FP32)
    s_masked = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.FP32)
    m = pl.create_tensor([NUM_HEADS * SEQ, 1], dtype=pl.FP32)
    shifted = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.FP32)
    e = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.FP32)
    l = pl.create_tensor([NUM_HEADS * SEQ, 1], dtype=pl.FP32)
    probs = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.FP32)
    p = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.BF16)
    o = pl.create_tensor([NUM_HEADS * SEQ, HEAD_DIM], dtype=pl.FP32)
    for h in pl.range(NUM_HEADS):
        kv0 = h * SEQ
        for rt in pl.range(SEQ // ROW_TILE):
            r0 = kv0 + rt * ROW_TILE
            s = qk_k(q, k, s, r0, kv0)
            s_scaled = scale_k(s, ATTN_SCALE, s_scaled, r0)
            for half in pl.range(ROW_TILE // RED_TILE):
                r1 = r0 + half * RED_TILE
                qi1 = rt * ROW_TILE + half * RED_TILE
                s_masked = mask_k(s_scaled, s_masked, r1, qi1)
                m = row_max_k(s_masked, m, r1)
            shifted = sub_k(s_masked, m, shifted, r0)
            e = exp_k(shifted, e, r0)
            for half in pl.range(ROW_TILE // RED_TILE):
                r1 = r0 + half * RED_TILE
                l = row_sum_k(e, l, r1)
            probs = div_k(e, l, probs, r0)
            p = cast_p_k(probs, p, r0)
            o = pv_k(p, v, o, r0, kv0)
            out = cast_out_k(o, out, r0)
    return out
