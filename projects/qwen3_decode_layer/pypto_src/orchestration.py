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
    input_norm,
    kv_cache_write,
    kv_proj_norm_rope,
    o_proj_residual,
    post_norm,
    q_proj_norm_rope,
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
    xn = input_norm(hidden_states, input_norm_w, xn)
    k_new = pl.create_tensor([BATCH, KV_DIM], dtype=pl.BF16)
    v_new = pl.create_tensor([BATCH, KV_DIM], dtype=pl.BF16)
    k_new, v_new = kv_proj_norm_rope(xn, wk, wv, k_norm_w, cos, sin, k_new, v_new)
    q_rot = q_proj_norm_rope(xn, wq, q_norm_w, cos, sin, q_rot)
    # The cache slot of each sequence's new token (position context - 1) and the context lengths,
    # read here (host-written inputs: the reads wait for no task) and packed two 12-bit fields a
    # word for the one-dispatch kernels (incore.py, kv_cache_write).
    ctx0 = pl.cast(pl.tensor.read(context_lens, [0]), pl.INDEX)
    pos0 = ctx0 - 1
    slot0 = pl.cast(pl.tensor.read(block_table, [0 * MAX_BLOCKS + pos0 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos0 % BLOCK_SIZE
    ctx1 = pl.cast(pl.tensor.read(context_lens, [1]), pl.INDEX)
    pos1 = ctx1 - 1
    slot1 = pl.cast(pl.tensor.read(block_table, [1 * MAX_BLOCKS + pos1 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos1 % BLOCK_SIZE
    ctx2 = pl.cast(pl.tensor.read(context_lens, [2]), pl.INDEX)
    pos2 = ctx2 - 1
    slot2 = pl.cast(pl.tensor.read(block_table, [2 * MAX_BLOCKS + pos2 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos2 % BLOCK_SIZE
    ctx3 = pl.cast(pl.tensor.read(context_lens, [3]), pl.INDEX)
    pos3 = ctx3 - 1
    slot3 = pl.cast(pl.tensor.read(block_table, [3 * MAX_BLOCKS + pos3 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos3 % BLOCK_SIZE
    ctx4 = pl.cast(pl.tensor.read(context_lens, [4]), pl.INDEX)
    pos4 = ctx4 - 1
    slot4 = pl.cast(pl.tensor.read(block_table, [4 * MAX_BLOCKS + pos4 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos4 % BLOCK_SIZE
    ctx5 = pl.cast(pl.tensor.read(context_lens, [5]), pl.INDEX)
    pos5 = ctx5 - 1
    slot5 = pl.cast(pl.tensor.read(block_table, [5 * MAX_BLOCKS + pos5 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos5 % BLOCK_SIZE
    ctx6 = pl.cast(pl.tensor.read(context_lens, [6]), pl.INDEX)
    pos6 = ctx6 - 1
    slot6 = pl.cast(pl.tensor.read(block_table, [6 * MAX_BLOCKS + pos6 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos6 % BLOCK_SIZE
    ctx7 = pl.cast(pl.tensor.read(context_lens, [7]), pl.INDEX)
    pos7 = ctx7 - 1
    slot7 = pl.cast(pl.tensor.read(block_table, [7 * MAX_BLOCKS + pos7 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos7 % BLOCK_SIZE
    ctx8 = pl.cast(pl.tensor.read(context_lens, [8]), pl.INDEX)
    pos8 = ctx8 - 1
    slot8 = pl.cast(pl.tensor.read(block_table, [8 * MAX_BLOCKS + pos8 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos8 % BLOCK_SIZE
    ctx9 = pl.cast(pl.tensor.read(context_lens, [9]), pl.INDEX)
    pos9 = ctx9 - 1
    slot9 = pl.cast(pl.tensor.read(block_table, [9 * MAX_BLOCKS + pos9 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos9 % BLOCK_SIZE
    ctx10 = pl.cast(pl.tensor.read(context_lens, [10]), pl.INDEX)
    pos10 = ctx10 - 1
    slot10 = pl.cast(pl.tensor.read(block_table, [10 * MAX_BLOCKS + pos10 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos10 % BLOCK_SIZE
    ctx11 = pl.cast(pl.tensor.read(context_lens, [11]), pl.INDEX)
    pos11 = ctx11 - 1
    slot11 = pl.cast(pl.tensor.read(block_table, [11 * MAX_BLOCKS + pos11 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos11 % BLOCK_SIZE
    ctx12 = pl.cast(pl.tensor.read(context_lens, [12]), pl.INDEX)
    pos12 = ctx12 - 1
    slot12 = pl.cast(pl.tensor.read(block_table, [12 * MAX_BLOCKS + pos12 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos12 % BLOCK_SIZE
    ctx13 = pl.cast(pl.tensor.read(context_lens, [13]), pl.INDEX)
    pos13 = ctx13 - 1
    slot13 = pl.cast(pl.tensor.read(block_table, [13 * MAX_BLOCKS + pos13 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos13 % BLOCK_SIZE
    ctx14 = pl.cast(pl.tensor.read(context_lens, [14]), pl.INDEX)
    pos14 = ctx14 - 1
    slot14 = pl.cast(pl.tensor.read(block_table, [14 * MAX_BLOCKS + pos14 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos14 % BLOCK_SIZE
    ctx15 = pl.cast(pl.tensor.read(context_lens, [15]), pl.INDEX)
    pos15 = ctx15 - 1
    slot15 = pl.cast(pl.tensor.read(block_table, [15 * MAX_BLOCKS + pos15 // BLOCK_SIZE]), pl.INDEX) * BLOCK_SIZE + pos15 % BLOCK_SIZE
    sw0 = slot0 + slot1 * 4096
    cw0 = ctx0 + ctx1 * 4096
    sw1 = slot2 + slot3 * 4096
    cw1 = ctx2 + ctx3 * 4096
    sw2 = slot4 + slot5 * 4096
    cw2 = ctx4 + ctx5 * 4096
    sw3 = slot6 + slot7 * 4096
    cw3 = ctx6 + ctx7 * 4096
    sw4 = slot8 + slot9 * 4096
    cw4 = ctx8 + ctx9 * 4096
    sw5 = slot10 + slot11 * 4096
    cw5 = ctx10 + ctx11 * 4096
    sw6 = slot12 + slot13 * 4096
    cw6 = ctx12 + ctx13 * 4096
    sw7 = slot14 + slot15 * 4096
    cw7 = ctx14 + ctx15 * 4096
    key_cache, value_cache = kv_cache_write(
        k_new, v_new, key_cache, value_cache, sw0, sw1, sw2, sw3, sw4, sw5, sw6, sw7
    )
    # Views, no data moved: the query heads of token b are rows b * 16 .. of q_heads; the 8 KV
    # heads of cache slot s are rows s * 8 .. of k_heads / v_heads (vLLM's [blocks, block_size,
    # kv_heads, head_dim] cache), so one cache block is 256 consecutive rows.
    q_heads = pl.reshape(q_rot, [BATCH * NUM_HEADS, HEAD_DIM])
    k_heads = pl.reshape(key_cache, [SLOTS * NUM_KV_HEADS, HEAD_DIM])
    v_heads = pl.reshape(value_cache, [SLOTS * NUM_KV_HEADS, HEAD_DIM])
    attn = attention_seq(
        q_heads, k_heads, v_heads, block_table, gqa_bias, attn, cw0, cw1, cw2, cw3, cw4, cw5, cw6, cw7
    )
    a_rows = pl.reshape(attn, [BATCH, NUM_HEADS * HEAD_DIM])
    resid1 = o_proj_residual(a_rows, wo, hidden_states, resid1)
    hn = pl.create_tensor([BATCH, HIDDEN], dtype=pl.BF16)
    hn = post_norm(resid1, post_norm_w, hn)
    mlp = pl.create_tensor([BATCH, INTER], dtype=pl.BF16)
    mlp = gate_up_silu(hn, w_gate, w_up, mlp)
    out = down_residual(mlp, w_down, resid1, out)
    return q_rot, key_cache, value_cache, attn, resid1, out
