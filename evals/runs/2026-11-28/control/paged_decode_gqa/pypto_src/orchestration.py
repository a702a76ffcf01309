# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""One decode step of paged attention with grouped-query attention (vLLM flash layout).

Three stages of 8 tasks, one task per (sequence, KV head) = 16 query rows:
  qk_matmul (cube):   scores[16, 32 * j ...] = Q @ K_j^T over the sequence's cache blocks only
  softmax (vector):   masked FP32 softmax of the scaled scores, P split into BF16 hi + lo
  pv_matmul (cube):   out = (P_hi + P_lo) @ V, accumulated in FP32, stored as BF16

The hi + lo split keeps P @ V at ~16 mantissa bits, close to the reference's FP32 product.
"""

import pypto.language as pl

NUM_SEQS = 4
NUM_HEADS = 32
NUM_KV_HEADS = 2
HEAD_SIZE = 128
BLOCK_SIZE = 32
MAX_BLOCKS_PER_SEQ = 8
NUM_BLOCKS = 40
Q_PER_KV = NUM_HEADS // NUM_KV_HEADS
MAX_SEQ = BLOCK_SIZE * MAX_BLOCKS_PER_SEQ
SCALE = 1.0 / (HEAD_SIZE ** 0.5)


@pl.jit
def paged_attention_decode(
    query: pl.Tensor[[NUM_SEQS * NUM_HEADS, HEAD_SIZE], pl.BF16],
    key_cache: pl.Tensor[[NUM_BLOCKS * BLOCK_SIZE, NUM_KV_HEADS * HEAD_SIZE], pl.BF16],
    value_cache: pl.Tensor[[NUM_BLOCKS * BLOCK_SIZE, NUM_KV_HEADS * HEAD_SIZE], pl.BF16],
    block_tables: pl.Tensor[[NUM_SEQS, MAX_BLOCKS_PER_SEQ], pl.INT32],
    seq_lens: pl.Tensor[[NUM_SEQS], pl.INT32],
    out: pl.Out[pl.Tensor[[NUM_SEQS * NUM_HEADS, HEAD_SIZE], pl.BF16]],
):
    # separate cube / vector stages: ptoas 0.27 segfaults in PTOToEmitC on mixed kernels for a2a3
    scores = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_SEQ], dtype=pl.FP32)
    for u in pl.spmd(NUM_SEQS * NUM_KV_HEADS, name_hint="qk_matmul"):
        seq = u // NUM_KV_HEADS
        kv_col = (u % NUM_KV_HEADS) * HEAD_SIZE
        row0 = u * Q_PER_KV
        seq_len = pl.cast(pl.read(seq_lens, [seq]), pl.INDEX)
        q = query[row0 : row0 + Q_PER_KV, :]
        for j in pl.range((seq_len + BLOCK_SIZE - 1) // BLOCK_SIZE):
            k_row = pl.cast(pl.read(block_tables, [seq, j]), pl.INDEX) * BLOCK_SIZE
            k_j = key_cache[k_row : k_row + BLOCK_SIZE, kv_col : kv_col + HEAD_SIZE]
            s_j = pl.matmul(q, k_j, b_trans=True, out_dtype=pl.FP32)
            scores = pl.assemble(scores, s_j, [row0, j * BLOCK_SIZE])

    probs_hi = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_SEQ], dtype=pl.BF16)
    probs_lo = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_SEQ], dtype=pl.BF16)
    for u in pl.parallel(NUM_SEQS * NUM_KV_HEADS):
        row0 = u * Q_PER_KV
        seq_len = pl.cast(pl.read(seq_lens, [u // NUM_KV_HEADS]), pl.INDEX)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="softmax"):
            s = pl.slice(scores, [Q_PER_KV, MAX_SEQ], [row0, 0], valid_shape=[Q_PER_KV, seq_len])
            s = pl.mul(pl.fillpad(s, pad_value=pl.PadValue.min), SCALE)
            p = pl.exp(pl.row_expand_sub(s, pl.row_max(s)))
            p = pl.row_expand_div(p, pl.row_sum(p))
            p_hi = pl.cast(p, target_type=pl.BF16, mode="rint")
            p_lo = pl.cast(pl.sub(p, pl.cast(p_hi, target_type=pl.FP32)), target_type=pl.BF16, mode="rint")
            probs_hi[row0 : row0 + Q_PER_KV, :] = p_hi
            probs_lo[row0 : row0 + Q_PER_KV, :] = p_lo

    for u in pl.spmd(NUM_SEQS * NUM_KV_HEADS, name_hint="pv_matmul"):
        seq = u // NUM_KV_HEADS
        kv_col = (u % NUM_KV_HEADS) * HEAD_SIZE
        row0 = u * Q_PER_KV
        seq_len = pl.cast(pl.read(seq_lens, [seq]), pl.INDEX)
        v_row0 = pl.cast(pl.read(block_tables, [seq, 0]), pl.INDEX) * BLOCK_SIZE
        v_0 = value_cache[v_row0 : v_row0 + BLOCK_SIZE, kv_col : kv_col + HEAD_SIZE]
        p_hi = probs_hi[row0 : row0 + Q_PER_KV, :]
        p_lo = probs_lo[row0 : row0 + Q_PER_KV, :]
        acc = pl.matmul(p_hi[:, 0:BLOCK_SIZE], v_0, out_dtype=pl.FP32)
        acc = pl.matmul_acc(acc, p_lo[:, 0:BLOCK_SIZE], v_0)
        for j in pl.range(1, (seq_len + BLOCK_SIZE - 1) // BLOCK_SIZE):
            v_row = pl.cast(pl.read(block_tables, [seq, j]), pl.INDEX) * BLOCK_SIZE
            c0 = j * BLOCK_SIZE
            v_j = value_cache[v_row : v_row + BLOCK_SIZE, kv_col : kv_col + HEAD_SIZE]
            acc = pl.matmul_acc(acc, p_hi[:, c0 : c0 + BLOCK_SIZE], v_j)
            acc = pl.matmul_acc(acc, p_lo[:, c0 : c0 + BLOCK_SIZE], v_j)
        out = pl.assemble(out, acc, [row0, 0])
    return out
