"""Orchestration of the naive port of paged_attention_decode: per sequence, the original's
operations one kernel each, every intermediate (gathered K and V, S, scaled S, m, shifted S, exp,
l, P FP32, P BF16, O FP32) through GM.

Per sequence b (n = context_lens[b] tokens, n_blocks = ceil(n / 64)): gather K and gather V and
QK once per block (the block table is read here), the seven softmax kernels once per 16-row tile
of the 64 heads (4 each), PV once (K loop over the blocks inside) and cast out once:
3 * n_blocks + 30 dispatches.
"""
import pypto.language as pl
from incore import (
    ATTN_SCALE,
    ROW_TILE,
    cast_out_k,
    cast_p_k,
    div_k,
    exp_k,
    gather_k,
    gather_v,
    pv_k,
    qk_k,
    row_max_k,
    row_sum_k,
    scale_k,
    sub_k,
)

BATCH = 4
NUM_HEADS = 64
HEAD_DIM = 128
BLOCK_SIZE = 64
MAX_BLOCKS = 8
MAX_CTX = MAX_BLOCKS * BLOCK_SIZE


@pl.jit
def paged_attention_decode(
    query: pl.Tensor[[256, 128], pl.BF16],
    key_cache: pl.Tensor[[2048, 128], pl.BF16],
    value_cache: pl.Tensor[[2048, 128], pl.BF16],
    block_table: pl.Tensor[[32], pl.INT32],
    context_lens: pl.Tensor[[4], pl.INT32],
    out: pl.Out[pl.Tensor[[256, 128], pl.BF16]],
):
    k_seq = pl.create_tensor([BATCH * MAX_CTX, HEAD_DIM], dtype=pl.BF16)
    v_seq = pl.create_tensor([BATCH * MAX_CTX, HEAD_DIM], dtype=pl.BF16)
    s = pl.create_tensor([BATCH * NUM_HEADS, MAX_CTX], dtype=pl.FP32)
    s_scaled = pl.create_tensor([BATCH * NUM_HEADS, MAX_CTX], dtype=pl.FP32)
    m = pl.create_tensor([BATCH * NUM_HEADS, 1], dtype=pl.FP32)
    shifted = pl.create_tensor([BATCH * NUM_HEADS, MAX_CTX], dtype=pl.FP32)
    e = pl.create_tensor([BATCH * NUM_HEADS, MAX_CTX], dtype=pl.FP32)
    l = pl.create_tensor([BATCH * NUM_HEADS, 1], dtype=pl.FP32)
    probs = pl.create_tensor([BATCH * NUM_HEADS, MAX_CTX], dtype=pl.FP32)
    p = pl.create_tensor([BATCH * NUM_HEADS, MAX_CTX], dtype=pl.BF16)
    o = pl.create_tensor([BATCH * NUM_HEADS, HEAD_DIM], dtype=pl.FP32)
    for b in pl.range(BATCH):
        n = pl.cast(pl.tensor.read(context_lens, [b]), pl.INDEX)
        n_blocks = (n + BLOCK_SIZE - 1) // BLOCK_SIZE
        n_pad = n_blocks * BLOCK_SIZE
        q_row = b * NUM_HEADS
        kv_row = b * MAX_CTX
        for j in pl.range(n_blocks):
            phys = pl.cast(pl.tensor.read(block_table, [b * MAX_BLOCKS + j]), pl.INDEX)
            src_row = phys * BLOCK_SIZE
            dst_row = kv_row + j * BLOCK_SIZE
            k_seq = gather_k(key_cache, k_seq, src_row, dst_row)
            v_seq = gather_v(value_cache, v_seq, src_row, dst_row)
        for j in pl.range(n_blocks):
            k_row = kv_row + j * BLOCK_SIZE
            s_col = j * BLOCK_SIZE
            s = qk_k(query, k_seq, s, q_row, k_row, s_col)
        for rb in pl.range(NUM_HEADS // ROW_TILE):
            r0 = q_row + rb * ROW_TILE
            s_scaled = scale_k(s, ATTN_SCALE, s_scaled, r0, n)
            m = row_max_k(s_scaled, m, r0, n)
            shifted = sub_k(s_scaled, m, shifted, r0, n)
            e = exp_k(shifted, e, r0, n)
            l = row_sum_k(e, l, r0, n)
            probs = div_k(e, l, probs, r0, n)
            p = cast_p_k(probs, p, r0, n, n_pad)
        o = pv_k(p, v_seq, o, q_row, kv_row, n_blocks)
        out = cast_out_k(o, out, q_row)
    return out
