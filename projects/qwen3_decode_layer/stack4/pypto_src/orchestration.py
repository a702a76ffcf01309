"""Orchestration of the 4-layer stack: the single layer's nine dispatches (see
../../pypto_src/orchestration.py; the stages are its incore.py) once per layer, layer l's weights and caches the rows
l * n .. of the stacked tensors (orchestration views), layer l's output the next one's input.
The packed context lengths and slots are the same for every layer and are read once."""
import sys
from pathlib import Path

# The layer's stages: ../../pypto_src/incore.py (this port has no incore.py of its own).
_LAYER = Path(__file__).resolve().parents[2] / "pypto_src"
if str(_LAYER) not in sys.path:
    sys.path.insert(0, str(_LAYER))

import pypto.language as pl  # noqa: E402
from incore import (  # noqa: E402
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

LAYERS = 4
Q_DIM = NUM_HEADS * HEAD_DIM


@pl.jit
def qwen3_decode_stack(
    hidden_states: pl.Tensor[[16, 1024], pl.BF16],
    input_norm_w: pl.Tensor[[4, 1024], pl.BF16],
    wq: pl.Tensor[[8192, 1024], pl.BF16],
    wk: pl.Tensor[[4096, 1024], pl.BF16],
    wv: pl.Tensor[[4096, 1024], pl.BF16],
    q_norm_w: pl.Tensor[[4, 128], pl.BF16],
    k_norm_w: pl.Tensor[[4, 128], pl.BF16],
    cos: pl.Tensor[[16, 128], pl.BF16],
    sin: pl.Tensor[[16, 128], pl.BF16],
    key_cache: pl.InOut[pl.Tensor[[12288, 1024], pl.BF16]],
    value_cache: pl.InOut[pl.Tensor[[12288, 1024], pl.BF16]],
    block_table: pl.Tensor[[192], pl.INT32],
    context_lens: pl.Tensor[[16], pl.INT32],
    gqa_bias: pl.Tensor[[16, 128], pl.FP32],
    wo: pl.Tensor[[4096, 2048], pl.BF16],
    post_norm_w: pl.Tensor[[4, 1024], pl.BF16],
    w_gate: pl.Tensor[[12288, 1024], pl.BF16],
    w_up: pl.Tensor[[12288, 1024], pl.BF16],
    w_down: pl.Tensor[[4096, 3072], pl.BF16],
    out: pl.Out[pl.Tensor[[64, 1024], pl.BF16]],
):
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
    # out holds every layer's output: rows l * 16 .. are layer l's (the last is the stack's).
    x_in = hidden_states
    for layer in pl.range(LAYERS):
        q_rot = pl.create_tensor([BATCH, Q_DIM], dtype=pl.BF16)
        attn = pl.create_tensor([BATCH * NUM_HEADS, HEAD_DIM], dtype=pl.BF16)
        resid1 = pl.create_tensor([BATCH, HIDDEN], dtype=pl.BF16)
        xn = pl.create_tensor([BATCH, HIDDEN], dtype=pl.BF16)
        k_new = pl.create_tensor([BATCH, KV_DIM], dtype=pl.BF16)
        v_new = pl.create_tensor([BATCH, KV_DIM], dtype=pl.BF16)
        hn = pl.create_tensor([BATCH, HIDDEN], dtype=pl.BF16)
        mlp = pl.create_tensor([BATCH, INTER], dtype=pl.BF16)
        in_w = pl.slice(input_norm_w, [1, HIDDEN], [layer, 0])
        post_w = pl.slice(post_norm_w, [1, HIDDEN], [layer, 0])
        qn_w = pl.slice(q_norm_w, [1, HEAD_DIM], [layer, 0])
        kn_w = pl.slice(k_norm_w, [1, HEAD_DIM], [layer, 0])
        wq_l = pl.slice(wq, [Q_DIM, HIDDEN], [layer * Q_DIM, 0])
        wk_l = pl.slice(wk, [KV_DIM, HIDDEN], [layer * KV_DIM, 0])
        wv_l = pl.slice(wv, [KV_DIM, HIDDEN], [layer * KV_DIM, 0])
        wo_l = pl.slice(wo, [HIDDEN, Q_DIM], [layer * HIDDEN, 0])
        wg_l = pl.slice(w_gate, [INTER, HIDDEN], [layer * INTER, 0])
        wu_l = pl.slice(w_up, [INTER, HIDDEN], [layer * INTER, 0])
        wd_l = pl.slice(w_down, [HIDDEN, INTER], [layer * HIDDEN, 0])
        kc_l = pl.slice(key_cache, [SLOTS, KV_DIM], [layer * SLOTS, 0])
        vc_l = pl.slice(value_cache, [SLOTS, KV_DIM], [layer * SLOTS, 0])
        xn = input_norm(x_in, in_w, xn)
        k_new, v_new = kv_proj_norm_rope(xn, wk_l, wv_l, kn_w, cos, sin, k_new, v_new)
        q_rot = q_proj_norm_rope(xn, wq_l, qn_w, cos, sin, q_rot)
        kc_l, vc_l = kv_cache_write(k_new, v_new, kc_l, vc_l, sw0, sw1, sw2, sw3, sw4, sw5, sw6, sw7)
        q_heads = pl.reshape(q_rot, [BATCH * NUM_HEADS, HEAD_DIM])
        k_heads = pl.reshape(kc_l, [SLOTS * NUM_KV_HEADS, HEAD_DIM])
        v_heads = pl.reshape(vc_l, [SLOTS * NUM_KV_HEADS, HEAD_DIM])
        attn = attention_seq(q_heads, k_heads, v_heads, block_table, gqa_bias, attn, cw0, cw1, cw2, cw3, cw4, cw5, cw6, cw7)
        a_rows = pl.reshape(attn, [BATCH, Q_DIM])
        resid1 = o_proj_residual(a_rows, wo_l, x_in, resid1)
        hn = post_norm(resid1, post_w, hn)
        mlp = gate_up_silu(hn, wg_l, wu_l, mlp)
        out_l = pl.slice(out, [BATCH, HIDDEN], [layer * BATCH, 0])
        out_l = down_residual(mlp, wd_l, resid1, out_l)
        x_in = out_l
    return key_cache, value_cache, out
