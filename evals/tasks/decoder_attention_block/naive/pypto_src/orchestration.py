"""Orchestration of the naive form of decoder_attention_block: the original's operations one kernel
each, every intermediate (the normalised x, q/k/v in FP32 and BF16, the roped q and k, the scores, P,
the attention output in FP32 and BF16, o_proj's output) through GM. Query head h reads the columns
of key/value head h // 2.

Dispatches: norm 2, q_proj 4, k_proj 2, v_proj 2, casts 2 + 1 + 1, RoPE 4 + 2, per head QK^T 1,
softmax 2 and PV 1 (16), attention cast 2, o_proj 4, residual 2: 44."""
import pypto.language as pl
from incore import (
    HEAD_DIM,
    HIDDEN,
    N_TILE,
    SEQ,
    VEC_ROWS,
    cast128_k,
    cast256_k,
    proj128_k,
    proj256_k,
    pv_k,
    qk_k,
    residual_k,
    rmsnorm_k,
    rope_k_k,
    rope_q_k,
    softmax_k,
)

NUM_HEADS = 4
NUM_KV_HEADS = 2
GROUP = 2


@pl.jit
def decoder_attention_block(
    x: pl.Tensor[[64, 256], pl.BF16],
    norm_w: pl.Tensor[[1, 256], pl.BF16],
    wq: pl.Tensor[[256, 256], pl.BF16],
    wk: pl.Tensor[[128, 256], pl.BF16],
    wv: pl.Tensor[[128, 256], pl.BF16],
    wo: pl.Tensor[[256, 256], pl.BF16],
    cos: pl.Tensor[[64, 64], pl.BF16],
    sin: pl.Tensor[[64, 64], pl.BF16],
    h: pl.Out[pl.Tensor[[64, 256], pl.BF16]],
):
    xn = pl.create_tensor([SEQ, HIDDEN], dtype=pl.BF16)
    q32 = pl.create_tensor([SEQ, NUM_HEADS * HEAD_DIM], dtype=pl.FP32)
    k32 = pl.create_tensor([SEQ, NUM_KV_HEADS * HEAD_DIM], dtype=pl.FP32)
    v32 = pl.create_tensor([SEQ, NUM_KV_HEADS * HEAD_DIM], dtype=pl.FP32)
    q = pl.create_tensor([SEQ, NUM_HEADS * HEAD_DIM], dtype=pl.BF16)
    k = pl.create_tensor([SEQ, NUM_KV_HEADS * HEAD_DIM], dtype=pl.BF16)
    v = pl.create_tensor([SEQ, NUM_KV_HEADS * HEAD_DIM], dtype=pl.BF16)
    q_rot = pl.create_tensor([SEQ, NUM_HEADS * HEAD_DIM], dtype=pl.BF16)
    k_rot = pl.create_tensor([SEQ, NUM_KV_HEADS * HEAD_DIM], dtype=pl.BF16)
    s = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.FP32)
    p = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.BF16)
    attn32 = pl.create_tensor([SEQ, NUM_HEADS * HEAD_DIM], dtype=pl.FP32)
    attn = pl.create_tensor([SEQ, NUM_HEADS * HEAD_DIM], dtype=pl.BF16)
    o32 = pl.create_tensor([SEQ, HIDDEN], dtype=pl.FP32)

    for half in pl.range(SEQ // VEC_ROWS):
        r0 = half * VEC_ROWS
        xn = rmsnorm_k(x, norm_w, xn, r0)
    for nb in pl.range(NUM_HEADS * HEAD_DIM // N_TILE):
        n0 = nb * N_TILE
        q32 = proj256_k(xn, wq, q32, n0)
    for nb in pl.range(NUM_KV_HEADS * HEAD_DIM // N_TILE):
        n0 = nb * N_TILE
        k32 = proj128_k(xn, wk, k32, n0)
    for nb in pl.range(NUM_KV_HEADS * HEAD_DIM // N_TILE):
        n0 = nb * N_TILE
        v32 = proj128_k(xn, wv, v32, n0)
    for half in pl.range(SEQ // VEC_ROWS):
        r0 = half * VEC_ROWS
        q = cast256_k(q32, q, r0)
    k = cast128_k(k32, k)
    v = cast128_k(v32, v)
    for hq in pl.range(NUM_HEADS):
        c0 = hq * HEAD_DIM
        q_rot = rope_q_k(q, cos, sin, q_rot, c0)
    for hk in pl.range(NUM_KV_HEADS):
        c0 = hk * HEAD_DIM
        k_rot = rope_k_k(k, cos, sin, k_rot, c0)
    for hd in pl.range(NUM_HEADS):
        q_col = hd * HEAD_DIM
        kv_col = (hd // GROUP) * HEAD_DIM
        s_row = hd * SEQ
        s = qk_k(q_rot, k_rot, s, q_col, kv_col, s_row)
        for half in pl.range(SEQ // VEC_ROWS):
            i0 = half * VEC_ROWS
            r0 = s_row + i0
            p = softmax_k(s, p, r0, i0)
        attn32 = pv_k(p, v, attn32, s_row, kv_col, q_col)
    for half in pl.range(SEQ // VEC_ROWS):
        r0 = half * VEC_ROWS
        attn = cast256_k(attn32, attn, r0)
    for nb in pl.range(HIDDEN // N_TILE):
        n0 = nb * N_TILE
        o32 = proj256_k(attn, wo, o32, n0)
    for half in pl.range(SEQ // VEC_ROWS):
        r0 = half * VEC_ROWS
        h = residual_k(x, o32, h, r0)
    return h
