# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Attention probabilities — per-head softmax(query @ key^T / sqrt(d)) in one fused cube + vector kernel.

    probs[h * Q_LEN + i, :] = softmax(query_h[i] @ key_h^T * HEAD_DIM ** -0.5)

Each task takes one head and Q_TILE query rows: the cube computes the FP32
scores against all KV_LEN keys and hands them to the two vector cores (half
the rows each), which run a max-shifted softmax while the scores are on chip.
"""
import pypto.language as pl

NUM_HEADS = 4
Q_LEN = 128
KV_LEN = 256
HEAD_DIM = 64
SCALING = HEAD_DIM ** -0.5
Q_TILE = 32          # query rows per task


@pl.jit
def attn_probs(
    query: pl.Tensor[[NUM_HEADS * Q_LEN, HEAD_DIM], pl.BF16],
    key: pl.Tensor[[NUM_HEADS * KV_LEN, HEAD_DIM], pl.BF16],
    probs: pl.Out[pl.Tensor[[NUM_HEADS * Q_LEN, KV_LEN], pl.FP32]],
):
    for blk in pl.parallel(NUM_HEADS * Q_LEN // Q_TILE):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="attn_probs",
                   optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=1)]):
            h = blk // (Q_LEN // Q_TILE)
            r0 = blk * Q_TILE
            k0 = h * KV_LEN
            scores = pl.matmul(query[r0 : r0 + Q_TILE, :], key[k0 : k0 + KV_LEN, :],
                               b_trans=True, out_dtype=pl.FP32)
            scaled = pl.mul(scores, SCALING)
            row_max = pl.row_max(scaled)
            exp_shifted = pl.exp(pl.row_expand_sub(scaled, row_max))
            inv_sum = pl.recip(pl.row_sum(exp_shifted))
            probs[r0 : r0 + Q_TILE, :] = pl.row_expand_mul(exp_shifted, inv_sum)
    return probs
