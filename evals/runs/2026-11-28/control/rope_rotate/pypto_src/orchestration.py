"""RoPE (rotate-half) over q [TOKENS, HEADS * HEAD_DIM], cos/sin [TOKENS, HEAD_DIM].

    out_lo = q_lo * cos_lo - q_hi * sin_lo
    out_hi = q_hi * cos_hi + q_lo * sin_hi

q and out are viewed head-major ([HEADS, TOKENS, HEAD_DIM], zero-copy transpose), so one
block's half-head tile [HEADS, TOK_TILE * HALF] has one row per head and the token's cos/sin
half-rows flatten to a single [1, TOK_TILE * HALF] row broadcast over the heads by
col_expand_mul. One SPMD vector kernel; each block handles TOK_TILE tokens, all heads.
"""
import pypto.language as pl

TOKENS = 256
HEADS = 8
HEAD_DIM = 128
HALF = HEAD_DIM // 2
HIDDEN = HEADS * HEAD_DIM

TOK_TILE = 8
HEAD_STEP = 4


@pl.jit
def rope(
    q: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    cos: pl.Tensor[[TOKENS, HEAD_DIM], pl.FP32],
    sin: pl.Tensor[[TOKENS, HEAD_DIM], pl.FP32],
    out: pl.Out[pl.Tensor[[TOKENS, HIDDEN], pl.FP32]],
):
    q_hm = pl.transpose(pl.reshape(q, [TOKENS, HEADS, HEAD_DIM]), 0, 1)
    out_hm = pl.transpose(pl.reshape(out, [TOKENS, HEADS, HEAD_DIM]), 0, 1)
    for tb in pl.spmd(TOKENS // TOK_TILE, name_hint="rope_rotate"):
        t0 = tb * TOK_TILE
        cos_lo = pl.reshape(pl.load(cos, [t0, 0], [TOK_TILE, HALF]), [1, TOK_TILE * HALF])
        sin_lo = pl.reshape(pl.load(sin, [t0, 0], [TOK_TILE, HALF]), [1, TOK_TILE * HALF])
        cos_hi = pl.reshape(pl.load(cos, [t0, HALF], [TOK_TILE, HALF]), [1, TOK_TILE * HALF])
        sin_hi = pl.reshape(pl.load(sin, [t0, HALF], [TOK_TILE, HALF]), [1, TOK_TILE * HALF])
        for hb in pl.pipeline(HEADS // HEAD_STEP, stage=HEADS // HEAD_STEP):
            h0 = hb * HEAD_STEP
            q_lo = pl.reshape(pl.load(q_hm, [h0, t0, 0], [HEAD_STEP, TOK_TILE, HALF]), [HEAD_STEP, TOK_TILE * HALF])
            q_hi = pl.reshape(pl.load(q_hm, [h0, t0, HALF], [HEAD_STEP, TOK_TILE, HALF]), [HEAD_STEP, TOK_TILE * HALF])
            o_lo = pl.sub(pl.col_expand_mul(q_lo, cos_lo), pl.col_expand_mul(q_hi, sin_lo))
            pl.store(pl.reshape(o_lo, [HEAD_STEP, TOK_TILE, HALF]), [h0, t0, 0], out_hm)
            o_hi = pl.add(pl.col_expand_mul(q_hi, cos_hi), pl.col_expand_mul(q_lo, sin_hi))
            pl.store(pl.reshape(o_hi, [HEAD_STEP, TOK_TILE, HALF]), [h0, t0, HALF], out_hm)
    return out
