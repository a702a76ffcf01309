# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Causal GQA self-attention prefill: 256 tokens, 4 query heads, 2 KV heads, head_dim 64.

Three stages: a cube kernel S = Q K^T per (head, 64-row block) over the causal key blocks only;
a vector kernel for the scaled, causally masked FP32 softmax that writes P as BF16 hi + lo parts;
a cube kernel O = P_hi V + P_lo V over the causal key blocks, accumulated in FP32 and stored as
BF16. A tiny kernel builds the causal bound tile used by the softmax stage.
"""
import pypto.language as pl

SEQ = 256
NUM_HEADS = 4
NUM_KV_HEADS = 2
HEAD_DIM = 64
Q_PER_KV = NUM_HEADS // NUM_KV_HEADS
SCALE = HEAD_DIM**-0.5
FLT_MAX = 3.4028234663852886e38

CUBE_ROWS = 64
VEC_ROWS = 32


@pl.jit
def attention_prefill(
    q: pl.Tensor[[SEQ, NUM_HEADS * HEAD_DIM], pl.BF16],
    k: pl.Tensor[[SEQ, NUM_KV_HEADS * HEAD_DIM], pl.BF16],
    v: pl.Tensor[[SEQ, NUM_KV_HEADS * HEAD_DIM], pl.BF16],
    out: pl.Out[pl.Tensor[[SEQ, NUM_HEADS * HEAD_DIM], pl.BF16]],
):
    bias = pl.create_tensor([VEC_ROWS, 2 * SEQ], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="causal_bound"):
        keep = pl.tile.tri(SEQ, [VEC_ROWS, 2 * SEQ], dtype=pl.FP32)
        bias = pl.store(pl.mul(pl.sub(pl.mul(keep, 2.0), 1.0), FLT_MAX), [0, 0], bias)

    scores = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.FP32)
    for blk in pl.spmd(NUM_HEADS * (SEQ // CUBE_ROWS), name_hint="qk_scores"):
        h = blk // (SEQ // CUBE_ROWS)
        rb = blk % (SEQ // CUBE_ROWS)
        s0 = h * SEQ + rb * CUBE_ROWS
        k0 = (h // Q_PER_KV) * HEAD_DIM
        q_t = q[rb * CUBE_ROWS : (rb + 1) * CUBE_ROWS, h * HEAD_DIM : (h + 1) * HEAD_DIM]
        for kb in pl.pipeline(rb + 1, stage=2):
            c0 = kb * CUBE_ROWS
            k_t = k[c0 : c0 + CUBE_ROWS, k0 : k0 + HEAD_DIM]
            scores[s0 : s0 + CUBE_ROWS, c0 : c0 + CUBE_ROWS] = pl.matmul(q_t, k_t, b_trans=True, out_dtype=pl.FP32)

    p_hi = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.BF16)
    p_lo = pl.create_tensor([NUM_HEADS * SEQ, SEQ], dtype=pl.BF16)
    for blk in pl.spmd(NUM_HEADS * (SEQ // VEC_ROWS), name_hint="softmax"):
        h = blk // (SEQ // VEC_ROWS)
        r0 = (blk % (SEQ // VEC_ROWS)) * VEC_ROWS
        valid_cols = (r0 // CUBE_ROWS + 1) * CUBE_ROWS
        s = pl.fillpad(
            pl.slice(scores, [VEC_ROWS, SEQ], [h * SEQ + r0, 0], valid_shape=[VEC_ROWS, valid_cols]),
            pad_value=pl.PadValue.min,
        )
        masked = pl.minimum(pl.mul(s, SCALE), bias[:, SEQ - r0 : 2 * SEQ - r0])
        e = pl.exp(pl.row_expand_sub(masked, pl.row_max(masked)))
        p = pl.row_expand_div(e, pl.row_sum(e))
        hi = pl.cast(p, target_type=pl.BF16)
        lo = pl.cast(pl.sub(p, pl.cast(hi, target_type=pl.FP32)), target_type=pl.BF16)
        p_hi[h * SEQ + r0 : h * SEQ + r0 + VEC_ROWS, :] = pl.set_validshape(hi, VEC_ROWS, valid_cols)
        p_lo[h * SEQ + r0 : h * SEQ + r0 + VEC_ROWS, :] = pl.set_validshape(lo, VEC_ROWS, valid_cols)

    for blk in pl.spmd(NUM_HEADS * (SEQ // CUBE_ROWS), name_hint="pv_out"):
        h = blk // (SEQ // CUBE_ROWS)
        rb = blk % (SEQ // CUBE_ROWS)
        p0 = h * SEQ + rb * CUBE_ROWS
        v0 = (h // Q_PER_KV) * HEAD_DIM
        o = pl.matmul(p_hi[p0 : p0 + CUBE_ROWS, 0:CUBE_ROWS], v[0:CUBE_ROWS, v0 : v0 + HEAD_DIM], out_dtype=pl.FP32)
        o = pl.matmul_acc(o, p_lo[p0 : p0 + CUBE_ROWS, 0:CUBE_ROWS], v[0:CUBE_ROWS, v0 : v0 + HEAD_DIM])
        for kb in pl.pipeline(1, rb + 1, stage=2):
            c0 = kb * CUBE_ROWS
            v_t = v[c0 : c0 + CUBE_ROWS, v0 : v0 + HEAD_DIM]
            o = pl.matmul_acc(o, p_hi[p0 : p0 + CUBE_ROWS, c0 : c0 + CUBE_ROWS], v_t)
            o = pl.matmul_acc(o, p_lo[p0 : p0 + CUBE_ROWS, c0 : c0 + CUBE_ROWS], v_t)
        out[rb * CUBE_ROWS : (rb + 1) * CUBE_ROWS, h * HEAD_DIM : (h + 1) * HEAD_DIM] = o
    return out
