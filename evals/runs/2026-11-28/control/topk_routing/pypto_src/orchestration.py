"""MoE router: gate projection, softmax over the experts, top-k, renormalised weights.

The gate projection writes the logits transposed ([experts, tokens]), so every per-token
reduction is a column reduction and the k-th pick of a token block is a [1, ROW_TILE] row.
The logits are scaled by the exact power of two PRE_SCALE (|logits| < 1.8e19), so that
exp(scaled - scaled_max) is 1 at the max and exactly 0 elsewhere; top-k is k rounds of column
max / argmax, each knocking the picked expert out with that one-hot. The softmax denominator
cancels in the renormalisation, so the weights are exp(v_k - v_0) / sum_j exp(v_j - v_0).
"""

import pypto.language as pl

TOKENS = 128
HIDDEN = 512
NUM_EXPERTS = 64
TOP_K = 8
MM_COLS = 16
ROW_TILE = 16
PRE_SCALE = 2.0**64
INV_PRE_SCALE = 2.0**-64
NEG_BIG = -3.0e38


@pl.jit
def topk_routing(
    x: pl.Tensor[[TOKENS, HIDDEN], pl.BF16],
    gate_weight: pl.Tensor[[NUM_EXPERTS, HIDDEN], pl.BF16],
    topk_weights: pl.Out[pl.Tensor[[TOKENS, TOP_K], pl.FP32]],
    topk_ids: pl.Out[pl.Tensor[[TOKENS, TOP_K], pl.INT32]],
):
    logits_t = pl.create_tensor([NUM_EXPERTS, TOKENS], dtype=pl.FP32)
    for mb in pl.spmd(TOKENS // MM_COLS, name_hint="gate_proj"):
        t0 = mb * MM_COLS
        wb = pl.slice(gate_weight, [NUM_EXPERTS, HIDDEN], [0, 0])
        xa = pl.slice(x, [MM_COLS, HIDDEN], [t0, 0])
        logits_t[:, t0 : t0 + MM_COLS] = pl.matmul(wb, xa, out_dtype=pl.FP32, b_trans=True)
    for rb in pl.spmd(TOKENS // ROW_TILE, name_hint="topk_norm"):
        r0 = rb * ROW_TILE
        c0 = pl.mul(pl.slice(logits_t, [NUM_EXPERTS, ROW_TILE], [0, r0]), PRE_SCALE)
        m0 = pl.col_max(c0)
        i0 = pl.col_argmax(c0)
        h0 = pl.col_expand_expdif(c0, m0)
        c1 = pl.add(c0, pl.mul(h0, NEG_BIG))
        m1 = pl.col_max(c1)
        i1 = pl.col_argmax(c1)
        h1 = pl.col_expand_expdif(c1, m1)
        c2 = pl.add(c1, pl.mul(h1, NEG_BIG))
        m2 = pl.col_max(c2)
        i2 = pl.col_argmax(c2)
        h2 = pl.col_expand_expdif(c2, m2)
        c3 = pl.add(c2, pl.mul(h2, NEG_BIG))
        m3 = pl.col_max(c3)
        i3 = pl.col_argmax(c3)
        h3 = pl.col_expand_expdif(c3, m3)
        c4 = pl.add(c3, pl.mul(h3, NEG_BIG))
        m4 = pl.col_max(c4)
        i4 = pl.col_argmax(c4)
        h4 = pl.col_expand_expdif(c4, m4)
        c5 = pl.add(c4, pl.mul(h4, NEG_BIG))
        m5 = pl.col_max(c5)
        i5 = pl.col_argmax(c5)
        h5 = pl.col_expand_expdif(c5, m5)
        c6 = pl.add(c5, pl.mul(h5, NEG_BIG))
        m6 = pl.col_max(c6)
        i6 = pl.col_argmax(c6)
        h6 = pl.col_expand_expdif(c6, m6)
        c7 = pl.add(c6, pl.mul(h6, NEG_BIG))
        m7 = pl.col_max(c7)
        i7 = pl.col_argmax(c7)
        vals = pl.concat(pl.concat(pl.concat(m0, m1), pl.concat(m2, m3)), pl.concat(pl.concat(m4, m5), pl.concat(m6, m7)))
        idxs = pl.concat(pl.concat(pl.concat(i0, i1), pl.concat(i2, i3)), pl.concat(pl.concat(i4, i5), pl.concat(i6, i7)))
        e = pl.col_expand_expdif(pl.mul(pl.reshape(vals, [TOP_K, ROW_TILE]), INV_PRE_SCALE), pl.mul(m0, INV_PRE_SCALE))
        w = pl.col_expand_div(e, pl.col_sum(e))
        topk_weights[r0 : r0 + ROW_TILE, :] = pl.transpose(w, 0, 1)
        topk_ids[r0 : r0 + ROW_TILE, :] = pl.transpose(pl.reshape(idxs, [TOP_K, ROW_TILE]), 0, 1)
    return topk_weights, topk_ids
