"""Orchestration of the port rope_rotate: one SPMD dispatch of BLOCKS blocks, ROW_TILE tokens each.

Per head h (128 columns at h * 128), with c1, c2, s1, s2 the halves of cos and sin:
    out[:, h, :64]  = q1 * c1 - q2 * s1        (q * cos + (-q2) * sin; negating a product is exact)
    out[:, h, 64:]  = q2 * c2 + q1 * s2
cos and sin are loaded once per block and reused by the 8 heads.
"""
import pypto.language as pl

TOKENS = 256
HEADS = 8
HEAD_DIM = 128
HALF = 64
ROW_TILE = 8
BLOCKS = TOKENS // ROW_TILE


@pl.jit
def rope(
    q: pl.Tensor[[256, 1024], pl.FP32],
    cos: pl.Tensor[[256, 128], pl.FP32],
    sin: pl.Tensor[[256, 128], pl.FP32],
    out: pl.Out[pl.Tensor[[256, 1024], pl.FP32]],
):
    for rb in pl.spmd(BLOCKS, name_hint="rope_rows"):
        r0 = rb * ROW_TILE
        c1 = pl.load(cos, [r0, 0], [ROW_TILE, HALF])
        c2 = pl.load(cos, [r0, HALF], [ROW_TILE, HALF])
        s1 = pl.load(sin, [r0, 0], [ROW_TILE, HALF])
        s2 = pl.load(sin, [r0, HALF], [ROW_TILE, HALF])
        for h in pl.range(HEADS):
            c0 = h * HEAD_DIM
            q1 = pl.load(q, [r0, c0], [ROW_TILE, HALF])
            q2 = pl.load(q, [r0, c0 + HALF], [ROW_TILE, HALF])
            o1 = pl.sub(pl.mul(q1, c1), pl.mul(q2, s1))
            o2 = pl.add(pl.mul(q2, c2), pl.mul(q1, s2))
            out = pl.store(o1, [r0, c0], out)
            out = pl.store(o2, [r0, c0 + HALF], out)
    return out
