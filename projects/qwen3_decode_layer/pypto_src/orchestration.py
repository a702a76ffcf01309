"""Orchestration of the port qwen3_decode_layer: the @pl.jit entry the golden runs.

The layer in the Hugging Face order, one dispatch per stage (incore.py lists them). Context
lengths and block-table entries are host-written inputs: the orchestration reads them (the reads
wait for no task) for the cache slot of each sequence's new token and the block count of its
attention; the attention task reads the block table entry of each block itself. The runtime orders
the stages by the GM tensors they share.
"""
import pypto.language as pl
from incore import (
    BATCH,
    BLOCK_SIZE,
    HEAD_DIM,
    HIDDEN,
    INTER,
    KV_DIM,
    MAX_BLOCKS,
    NUM_HEADS,
    NUM_KV_HEADS,
    SLOTS,
    attention_seq,
    down_residual,
    gate_up_silu,
    kv_cache_write,
    kv_proj_norm_rope,
    o_proj_residual,
    q_proj_norm_rope,
    rms_norm_rows,
)


@pl.jit
def qwen3_decode_layer(
    hidden_states: pl.Tensor[[16, 1024], pl.BF16],
    input_norm_w: pl.Tensor[[1, 1024], pl.BF16],
    wq: pl.Tensor[[2048, 1024], pl.BF16],
    wk: pl.Tensor[[1024, 1024], pl.BF16],
    wv: pl.Tensor[[1024, 1024], pl.BF16],
    q_norm_w: pl.Tensor[[1, 128], pl.BF16],
    k_norm_w: pl.Tensor[[1, 128], pl.BF16],
    cos: pl.Tensor[[16, 128], pl.BF16],
    sin: pl.Tensor[[16, 128], pl.BF16],
    key_cache: pl.InOut[pl.Tensor[[3072, 1024], pl.BF16]],
    value_cache: pl.InOut[pl.Tensor[[3072, 1024], pl.BF16]],
    block_table: pl.Tensor[[192], pl.INT32],
    context_lens: pl.Tensor[[16], pl.INT32],
    gqa_bias: pl.Tensor[[16, 128], pl.FP32],
    wo: pl.Tensor[[1024, 2048], pl.BF16],
    post_norm_w: pl.Tensor[[1, 1024], pl.BF16],
    w_gate: pl.Tensor[[3072, 1024], pl.BF16],
    w_up: pl.Tensor[[3072, 1024], pl.BF16],
    w_down: pl.Tensor[[1024, 3072], pl.BF16],
    q_rot: pl.Out[pl.Tensor[[16, 2048], pl.BF16]],
    attn: pl.Out[pl.Tensor[[256, 128], pl.BF16]],
    resid1: pl.Out[pl.Tensor[[16, 1024], pl.BF16]],
    out: pl.Out[pl.Tensor[[16, 1024], pl.BF16]],
):
    xn = pl.create_tensor([BATCH, HIDDEN], dtype=pl.BF16)
    xn = rms_norm_rows(hidden_states, input_norm_w, xn)
    q_rot = q_proj_norm_rope(xn, wq, q_norm_w, cos, sin, q_rot)
    k_new = pl.create_tensor([BATCH, KV_DIM], dtype=pl.BF16)
    v_new = pl.create_tensor([BATCH, KV_DIM], dtype=pl.BF16)
    k_new, v_new = kv_proj_norm_rope(xn, wk, wv, k_norm_w, cos, sin, k_new, v_new)
    for sq in pl.parallel(BATCH):
        pos = pl.cast(pl.tensor.read(context_lens, [sq]), pl.INDEX) - 1
        lb = pos // BLOCK_SIZE
        phys = pl.cast(pl.tensor.read(block_table, [sq * MAX_BLOCKS + lb]), pl.INDEX)
        slot = phys * BLOCK_SIZE + pos - lb * BLOCK_SIZE
        key_cache, value_cache = kv_cache_write(k_new, v_new, key_cache, value_cache, sq, slot)
    # Views, no data moved: the query heads of token b are rows b * 16 .. of q_heads; the 8 KV
    # heads of cache slot s are rows s * 8 .. of k_heads / v_heads (vLLM's [blocks, block_size,
    # kv_heads, head_dim] cache), so one cache block is 256 consecutive rows.
    q_heads = pl.reshape(q_rot, [BATCH * NUM_HEADS, HEAD_DIM])
    k_heads = pl.reshape(key_cache, [SLOTS * NUM_KV_HEADS, HEAD_DIM])
    v_heads = pl.reshape(value_cache, [SLOTS * NUM_KV_HEADS, HEAD_DIM])
    for sa in pl.parallel(BATCH):
        ctx_len = pl.cast(pl.tensor.read(context_lens, [sa]), pl.INDEX)
        n_blocks = (ctx_len + BLOCK_SIZE - 1) // BLOCK_SIZE
        attn = attention_seq(q_heads, k_heads, v_heads, block_table, gqa_bias, attn, sa, ctx_len, n_blocks)
    a_rows = pl.reshape(attn, [BATCH, NUM_HEADS * HEAD_DIM])
    resid1 = o_proj_residual(a_rows, wo, hidden_states, resid1)
    hn = pl.create_tensor([BATCH, HIDDEN], dtype=pl.BF16)
    hn = rms_norm_rows(resid1, post_norm_w, hn)
    mlp = pl.create_tensor([BATCH, INTER], dtype=pl.BF16)
    mlp = gate_up_silu(hn, w_gate, w_up, mlp)
    out = down_residual(mlp, w_down, resid1, out)
    return q_rot, key_cache, value_cache, attn, resid1, out
