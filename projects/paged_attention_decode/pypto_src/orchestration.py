"""Orchestration of the port paged_attention_decode: the @pl.jit entry the golden runs.

Sequences are independent (pl.parallel). Per sequence b the orchestration reads context_lens[b]
and, per logical block j, block_table[b * MAX_BLOCKS + j] (host-written inputs: the reads do not
wait for any task), slices the physical K/V block out of the pools and submits the four block
tasks. Block 0 (every sequence has one) writes its statistics and partial output straight into
the running accumulators, so no init kernel and no is_first flag are needed; blocks 1.. are merged
with online_softmax_update, whose pl.InOut accumulators order the merges while later QK/PV tasks
start early. Tasks per sequence: 4 * n_blocks (3 + 4 * (n_blocks - 1) + 1 finalize).
"""
import pypto.language as pl
from incore import (
    ATTN_SCALE,
    online_softmax_finalize,
    online_softmax_prepare,
    online_softmax_update,
    pv_matmul,
    qk_matmul,
)

BATCH = 4
NUM_HEADS = 64
HEAD_DIM = 128
BLOCK_SIZE = 64
MAX_BLOCKS = 8


@pl.jit
def paged_attention_decode(
    query: pl.Tensor[[256, 128], pl.BF16],
    key_cache: pl.Tensor[[2048, 128], pl.BF16],
    value_cache: pl.Tensor[[2048, 128], pl.BF16],
    block_table: pl.Tensor[[32], pl.INT32],
    context_lens: pl.Tensor[[4], pl.INT32],
    out: pl.Out[pl.Tensor[[256, 128], pl.BF16]],
):
    for b in pl.parallel(BATCH):
        ctx_len = pl.cast(pl.tensor.read(context_lens, [b]), pl.INDEX)
        n_blocks = (ctx_len + BLOCK_SIZE - 1) // BLOCK_SIZE
        q_row = b * NUM_HEADS
        q_heads = pl.slice(query, [NUM_HEADS, HEAD_DIM], [q_row, 0])
        phys0 = pl.cast(pl.tensor.read(block_table, [b * MAX_BLOCKS]), pl.INDEX)
        k_first = pl.slice(key_cache, [BLOCK_SIZE, HEAD_DIM], [phys0 * BLOCK_SIZE, 0])
        v_first = pl.slice(value_cache, [BLOCK_SIZE, HEAD_DIM], [phys0 * BLOCK_SIZE, 0])
        valid_first = pl.min(BLOCK_SIZE, ctx_len)
        s_first = pl.create_tensor([NUM_HEADS, BLOCK_SIZE], dtype=pl.FP32)
        s_first = qk_matmul(q_heads, k_first, s_first)
        p_first = pl.create_tensor([NUM_HEADS, BLOCK_SIZE], dtype=pl.BF16)
        m_run = pl.create_tensor([1, NUM_HEADS], dtype=pl.FP32)
        l_run = pl.create_tensor([1, NUM_HEADS], dtype=pl.FP32)
        p_first, m_run, l_run = online_softmax_prepare(s_first, ATTN_SCALE, valid_first, p_first, m_run, l_run)
        o_first = pl.create_tensor([NUM_HEADS, HEAD_DIM], dtype=pl.FP32)
        o_run = pv_matmul(p_first, v_first, o_first)
        for j in pl.range(1, n_blocks):
            phys = pl.cast(pl.tensor.read(block_table, [b * MAX_BLOCKS + j]), pl.INDEX)
            k_blk = pl.slice(key_cache, [BLOCK_SIZE, HEAD_DIM], [phys * BLOCK_SIZE, 0])
            v_blk = pl.slice(value_cache, [BLOCK_SIZE, HEAD_DIM], [phys * BLOCK_SIZE, 0])
            valid_len = pl.min(BLOCK_SIZE, ctx_len - j * BLOCK_SIZE)
            s_blk = pl.create_tensor([NUM_HEADS, BLOCK_SIZE], dtype=pl.FP32)
            s_blk = qk_matmul(q_heads, k_blk, s_blk)
            p_blk = pl.create_tensor([NUM_HEADS, BLOCK_SIZE], dtype=pl.BF16)
            m_blk = pl.create_tensor([1, NUM_HEADS], dtype=pl.FP32)
            l_blk = pl.create_tensor([1, NUM_HEADS], dtype=pl.FP32)
            p_blk, m_blk, l_blk = online_softmax_prepare(s_blk, ATTN_SCALE, valid_len, p_blk, m_blk, l_blk)
            o_blk = pl.create_tensor([NUM_HEADS, HEAD_DIM], dtype=pl.FP32)
            o_blk = pv_matmul(p_blk, v_blk, o_blk)
            m_run, l_run, o_run = online_softmax_update(m_blk, l_blk, o_blk, m_run, l_run, o_run)
        out_rows = pl.slice(out, [NUM_HEADS, HEAD_DIM], [q_row, 0])
        online_softmax_finalize(l_run, o_run, out_rows)
    return out
