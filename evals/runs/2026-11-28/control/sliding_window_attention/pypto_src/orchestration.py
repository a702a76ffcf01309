"""Causal sliding-window (100) GQA attention prefill: 256 tokens, 4 q heads, 1 kv head, dim 128.

The 4 query heads share the key/value head, so q and out are viewed as [SEQ * 4, 128] (row 4 t + h is
token t, head h) and every tile of Q_TOK tokens is one [4 Q_TOK, 128] x [128, KV_SPAN] score matmul.
Three kernels per tile (a2a3's ptoas cannot fuse cube and vector in one kernel): QK^T (cube),
masked softmax (vector), PV (cube, BF16 out).
"""
import pypto.language as pl

SEQ = 256
NUM_HEADS = 4
HEAD_DIM = 128
WINDOW = 100
Q_TOK = 16  # tokens per tile
ROWS = Q_TOK * NUM_HEADS  # score rows per tile
KV_SPAN = 128  # keys [i0 - 112, i0 + 16) cover every window of the tile
SCALE = HEAD_DIM ** -0.5
NEG_BIG = 1.0e30
SHIFT = 104  # column shift of the mask table, >= WINDOW and 32-byte aligned
MASK_TOK = 128  # mask table covers tokens 0..127 (i0 - ks <= 112)
MASK_COLS = SHIFT + MASK_TOK + 16
MASK_TASK_TOK = 16


@pl.jit
def sliding_window_attention(
    q: pl.Tensor[[SEQ, NUM_HEADS * HEAD_DIM], pl.BF16],
    k: pl.Tensor[[SEQ, HEAD_DIM], pl.BF16],
    v: pl.Tensor[[SEQ, HEAD_DIM], pl.BF16],
    out: pl.Out[pl.Tensor[[SEQ, NUM_HEADS * HEAD_DIM], pl.BF16]],
):
    q_rows = pl.reshape(q, [SEQ * NUM_HEADS, HEAD_DIM])
    out_rows = pl.reshape(out, [SEQ * NUM_HEADS, HEAD_DIM])
    # Additive window mask, one row per (token, head): bias_g[4 i + h, j + SHIFT] = 0 for i - 100 < j <= i,
    # else -1e30.  Tiles see it through bias_g[4 d : 4 d + ROWS, SHIFT : SHIFT + KV_SPAN], d = i0 - ks.
    bias_g = pl.create_tensor([MASK_TOK * NUM_HEADS, MASK_COLS], dtype=pl.FP32)
    for mb in pl.parallel(0, MASK_TOK // MASK_TASK_TOK):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="swa_mask"):
            for t in pl.range(MASK_TASK_TOK):
                i = mb * MASK_TASK_TOK + t
                r = i * NUM_HEADS
                z0 = i + SHIFT - WINDOW + 1
                bias_g[r : r + NUM_HEADS, :] = pl.full([NUM_HEADS, MASK_COLS], dtype=pl.FP32, value=-NEG_BIG)
                bias_g[r : r + NUM_HEADS, z0 : z0 + WINDOW + 4] = pl.full(
                    [NUM_HEADS, WINDOW + 4], dtype=pl.FP32, value=0.0
                )
                bias_g[r : r + NUM_HEADS, i + SHIFT + 1 : i + SHIFT + 9] = pl.full(
                    [NUM_HEADS, 8], dtype=pl.FP32, value=-NEG_BIG
                )
    scores_g = pl.create_tensor([SEQ * NUM_HEADS, KV_SPAN], dtype=pl.FP32)
    probs_g = pl.create_tensor([SEQ * NUM_HEADS, KV_SPAN], dtype=pl.BF16)
    for qb in pl.parallel(0, SEQ // Q_TOK):
        i0 = qb * Q_TOK
        ks = pl.max(i0 - (KV_SPAN - Q_TOK), 0)
        r0 = i0 * NUM_HEADS
        b0 = (i0 - ks) * NUM_HEADS
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="swa_qk"):
            scores_g[r0 : r0 + ROWS, :] = pl.matmul(
                q_rows[r0 : r0 + ROWS, :], k[ks : ks + KV_SPAN, :], b_trans=True, out_dtype=pl.FP32
            )
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="swa_softmax"):
            scores = pl.add(pl.mul(scores_g[r0 : r0 + ROWS, :], SCALE), bias_g[b0 : b0 + ROWS, SHIFT : SHIFT + KV_SPAN])
            p = pl.exp(pl.row_expand_sub(scores, pl.row_max(scores)))
            probs_g[r0 : r0 + ROWS, :] = pl.cast(pl.row_expand_div(p, pl.row_sum(p)), target_type=pl.BF16)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="swa_pv"):
            out_rows[r0 : r0 + ROWS, :] = pl.matmul(probs_g[r0 : r0 + ROWS, :], v[ks : ks + KV_SPAN, :], out_dtype=pl.BF16)
    return out
