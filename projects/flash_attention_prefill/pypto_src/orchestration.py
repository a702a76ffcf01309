"""Orchestration of the port flash_attention_prefill: the @pl.jit entry the golden runs.

Heads and query tiles are independent (pl.parallel). Per query tile the diagonal KV block is done
first and writes its statistics and partial output straight into the running accumulators
(m_run, l_run, o_run): it initialises them, so no init kernel and no is_first flag are needed.
The blocks strictly below the diagonal need no mask and are merged one by one with
online_softmax_update; the pl.InOut chain on the accumulators orders the merges of one query tile
while the QK and PV tasks of later blocks already run. online_softmax_finalize writes the tile.

Tasks per query tile qb (0-based): 3 (diagonal) + 4 * qb (below it) + 1 (finalize).
"""
import pypto.language as pl
from incore import (
    ATTN_SCALE,
    causal_softmax_prepare,
    online_softmax_finalize,
    online_softmax_prepare,
    online_softmax_update,
    pv_matmul,
    qk_matmul,
)

NUM_HEADS = 2
SEQ = 512
HEAD_DIM = 128
Q_TILE = 64
KV_BLOCK = 64


@pl.jit
def flash_attention_prefill(
    q: pl.Tensor[[1024, 128], pl.BF16],
    k: pl.Tensor[[1024, 128], pl.BF16],
    v: pl.Tensor[[1024, 128], pl.BF16],
    causal_bias: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[1024, 128], pl.BF16]],
):
    for h in pl.parallel(NUM_HEADS):
        for qb in pl.parallel(SEQ // Q_TILE):
            row0 = h * SEQ + qb * Q_TILE
            q_tile = pl.slice(q, [Q_TILE, HEAD_DIM], [row0, 0])
            k_diag = pl.slice(k, [KV_BLOCK, HEAD_DIM], [row0, 0])
            v_diag = pl.slice(v, [KV_BLOCK, HEAD_DIM], [row0, 0])
            s_diag = pl.create_tensor([Q_TILE, KV_BLOCK], dtype=pl.FP32)
            s_diag = qk_matmul(q_tile, k_diag, s_diag)
            p_diag = pl.create_tensor([Q_TILE, KV_BLOCK], dtype=pl.BF16)
            m_run = pl.create_tensor([1, Q_TILE], dtype=pl.FP32)
            l_run = pl.create_tensor([1, Q_TILE], dtype=pl.FP32)
            p_diag, m_run, l_run = causal_softmax_prepare(s_diag, causal_bias, p_diag, m_run, l_run)
            o_diag = pl.create_tensor([Q_TILE, HEAD_DIM], dtype=pl.FP32)
            o_run = pv_matmul(p_diag, v_diag, o_diag)
            for kb in pl.range(qb):
                kv0 = h * SEQ + kb * KV_BLOCK
                k_blk = pl.slice(k, [KV_BLOCK, HEAD_DIM], [kv0, 0])
                v_blk = pl.slice(v, [KV_BLOCK, HEAD_DIM], [kv0, 0])
                s_blk = pl.create_tensor([Q_TILE, KV_BLOCK], dtype=pl.FP32)
                s_blk = qk_matmul(q_tile, k_blk, s_blk)
                p_blk = pl.create_tensor([Q_TILE, KV_BLOCK], dtype=pl.BF16)
                m_blk = pl.create_tensor([1, Q_TILE], dtype=pl.FP32)
                l_blk = pl.create_tensor([1, Q_TILE], dtype=pl.FP32)
                p_blk, m_blk, l_blk = online_softmax_prepare(s_blk, ATTN_SCALE, KV_BLOCK, p_blk, m_blk, l_blk)
                o_blk = pl.create_tensor([Q_TILE, HEAD_DIM], dtype=pl.FP32)
                o_blk = pv_matmul(p_blk, v_blk, o_blk)
                m_run, l_run, o_run = online_softmax_update(m_blk, l_blk, o_blk, m_run, l_run, o_run)
            out_tile = pl.slice(out, [Q_TILE, HEAD_DIM], [row0, 0])
            online_softmax_finalize(l_run, o_run, out_tile)
    return out
