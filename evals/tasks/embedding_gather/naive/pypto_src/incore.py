"""Incore functions of the naive form of embedding_gather: one kernel per operation of the original
(the row gather, one row per dispatch, then the scale per block of 32 tokens), the gathered rows
through GM. The speed baseline the scorer compares attempts with."""
import math

import pypto.language as pl

TOKENS = 256
VOCAB = 4096
HIDDEN = 512
TOKEN_TILE = 32
EMBED_SCALE = math.sqrt(512)


@pl.jit.incore
def gather_row_k(table: pl.Tensor[[4096, 512], pl.FP32], rows: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
                 src: pl.Scalar[pl.INDEX], dst: pl.Scalar[pl.INDEX]):
    t = pl.load(table, [src, 0], [1, HIDDEN])
    pl.store(t, [dst, 0], rows)
    return rows


@pl.jit.incore
def scale_k(rows: pl.Tensor[[256, 512], pl.FP32], out: pl.Out[pl.Tensor[[256, 512], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    t = pl.load(rows, [t0, 0], [TOKEN_TILE, HIDDEN])
    pl.store(pl.mul(t, EMBED_SCALE), [t0, 0], out)
    return out
