"""Orchestration of the naive form of paged_attention_decode: per sequence, the original's operations
one kernel each, every intermediate (gathered K and V, S, scaled S, max, shifted S, exp, sum, P FP32,
P BF16, O FP32) through GM.

Per sequence i (n = seq_lens[i] tokens, n_blocks = ceil(n / 32)): gather K and gather V once per
block (the block table is read here), QK once per KV head and block, the seven softmax kernels once
over the sequence's 32 score rows, PV once per KV head (a loop over the blocks inside), cast out
once: 4 * n_blocks + 10 dispatches."""
import pypto.language as pl
from incore import (
    BLOCK_SIZE,
    GROUP,
    HEAD_SIZE,
    KV_WIDTH,
    MAX_LEN,
    NUM_HEADS,
    cast_out_k,
    cast_p_k,
    div_k,
    exp_k,
    gather_key_k,
    gather_value_k,
    pv_k,
    qk_k,
    row_max_k,
    row_sum_k,
    scale_k,
    sub_k,
)

NUM_SEQS = 4
NUM_KV_HEADS = 2


@pl.jit
def paged_attention_decode(
    query: pl.Tensor[[128, 128], pl.BF16],
    key_cache: pl.Tensor[[1280, 256], pl.BF16],
    value_cache: pl.Tensor[[1280, 256], pl.BF16],
    block_tables: pl.Tensor[[4, 8], pl.INT32],
    seq_lens: pl.Tensor[[4], pl.INT32],
    out: pl.Out[pl.Tensor[[128, 128], pl.BF16]],
):
    k_seq = pl.create_tensor([NUM_SEQS * MAX_LEN, KV_WIDTH], dtype=pl.BF16)
    v_seq = pl.create_tensor([NUM_SEQS * MAX_LEN, KV_WIDTH], dtype=pl.BF16)
    s = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_LEN], dtype=pl.FP32)
    s_scaled = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_LEN], dtype=pl.FP32)
    m = pl.create_tensor([NUM_SEQS * NUM_HEADS, 1], dtype=pl.FP32)
    shifted = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_LEN], dtype=pl.FP32)
    e = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_LEN], dtype=pl.FP32)
    l = pl.create_tensor([NUM_SEQS * NUM_HEADS, 1], dtype=pl.FP32)
    probs = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_LEN], dtype=pl.FP32)
    p = pl.create_tensor([NUM_SEQS * NUM_HEADS, MAX_LEN], dtype=pl.BF16)
    o = pl.create_tensor([NUM_SEQS * NUM_HEADS, HEAD_SIZE], dtype=pl.FP32)
    for i in pl.range(NUM_SEQS):
        n = pl.cast(pl.tensor.read(seq_lens, [i]), pl.INDEX)
        n_blocks = (n + BLOCK_SIZE - 1) // BLOCK_SIZE
        n_pad = n_blocks * BLOCK_SIZE
        q_row = i * NUM_HEADS
        kv_row = i * MAX_LEN
        for j in pl.range(n_blocks):
            blk = pl.cast(pl.tensor.read(block_tables, [i, j]), pl.INDEX)
            src_row = blk * BLOCK_SIZE
            dst_row = kv_row + j * BLOCK_SIZE
            k_seq = gather_key_k(key_cache, k_seq, src_row, dst_row)
            v_seq = gather_value_k(value_cache, v_seq, src_row, dst_row)
        for g in pl.range(NUM_KV_HEADS):
            g_row = q_row + g * GROUP
            kv_col = g * HEAD_SIZE
            for j in pl.range(n_blocks):
                k_row = kv_row + j * BLOCK_SIZE
                s_col = j * BLOCK_SIZE
                s = qk_k(query, k_seq, s, g_row, k_row, kv_col, s_col)
        s_scaled = scale_k(s, s_scaled, q_row, n)
        m = row_max_k(s_scaled, m, q_row, n)
        shifted = sub_k(s_scaled, m, shifted, q_row, n)
        e = exp_k(shifted, e, q_row, n)
        l = row_sum_k(e, l, q_row, n)
        probs = div_k(e, l, probs, q_row, n)
        p = cast_p_k(probs, p, q_row, n, n_pad)
        for g in pl.range(NUM_KV_HEADS):
            g_row = q_row + g * GROUP
            kv_col = g * HEAD_SIZE
            o = pv_k(p, v_seq, o, g_row, kv_row, kv_col, n_blocks)
        out = cast_out_k(o, out, q_row)
    return out
