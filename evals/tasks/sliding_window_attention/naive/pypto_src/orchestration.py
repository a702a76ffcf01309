"""Orchestration of the naive form of sliding_window_attention: per query head and block of 64 queries,
the original's operations one kernel each over whole 256-key score rows (the keys outside the window
included, then masked), every intermediate (S, scaled S, masked S, max, shifted S, exp, sum, P FP32,
P BF16, O FP32) through GM. The 4 query heads read the one key/value head.

Per block: qk once, the eight vector kernels once per 32-row half, pv and cast out once: 19
dispatches, 16 blocks (4 heads x 4)."""
import pypto.language as pl
from incore import (
    CUBE_ROWS,
    HEAD_DIM,
    SEQ,
    VEC_ROWS,
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

NUM_HEADS = 4


@pl.jit
def sliding_window_attention(
    q: pl.Tensor[[256, 512], pl.BF16],
    k: pl.Tensor[[256, 128], pl.BF16],
    v: pl.Tensor[[256, 128], pl.BF16],
    out: pl.Out[pl.Tensor[[256, 512], pl.BF16]],
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
    o = pl.create_tensor([SEQ, NUM_HEADS * HEAD_DIM], dtype=pl.FP32)
    for h in pl.range(NUM_HEADS):
        q_col = h * HEAD_DIM
        for qb in pl.range(SEQ // CUBE_ROWS):
            i0 = qb * CUBE_ROWS
            s_row = h * SEQ + i0
            s = qk_k(q, k, s, i0, q_col, s_row)
            for half in pl.range(CUBE_ROWS // VEC_ROWS):
                r0 = s_row + half * VEC_ROWS
                i1 = i0 + half * VEC_ROWS
                s_scaled = scale_k(s, s_scaled, r0)
                s_masked = mask_k(s_scaled, s_masked, r0, i1)
                m = row_max_k(s_masked, m, r0)
                shifted = sub_k(s_masked, m, shifted, r0)
                e = exp_k(shifted, e, r0)
                l = row_sum_k(e, l, r0)
                probs = div_k(e, l, probs, r0)
                p = cast_p_k(probs, p, r0)
            o = pv_k(p, v, o, s_row, i0, q_col)
            out = cast_out_k(o, out, i0, q_col)
    return out
