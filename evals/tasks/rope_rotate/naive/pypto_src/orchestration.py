"""Orchestration of the naive form of rope_rotate: per block of 32 tokens and per head, five
dispatches (negate, copy, q * cos, rot * sin, add), every intermediate through GM."""
import pypto.language as pl
from incore import HEAD_DIM, TOKEN_TILE, add_k, copy_half_k, mul_table_k, negate_half_k


@pl.jit
def rope(
    q: pl.Tensor[[256, 1024], pl.FP32],
    cos: pl.Tensor[[256, 128], pl.FP32],
    sin: pl.Tensor[[256, 128], pl.FP32],
    out: pl.Out[pl.Tensor[[256, 1024], pl.FP32]],
):
    rot = pl.create_tensor([256, 1024], dtype=pl.FP32)
    a = pl.create_tensor([256, 1024], dtype=pl.FP32)
    b = pl.create_tensor([256, 1024], dtype=pl.FP32)
    for tb in pl.range(256 // TOKEN_TILE):
        for h in pl.range(8):
            t0 = tb * TOKEN_TILE
            c0 = h * HEAD_DIM
            rot = negate_half_k(q, rot, t0, c0)
            rot = copy_half_k(q, rot, t0, c0)
            a = mul_table_k(q, cos, a, t0, c0)
            b = mul_table_k(rot, sin, b, t0, c0)
            out = add_k(a, b, out, t0, c0)
    return out
