"""Incore functions of the naive form of rope_rotate: one kernel per operation of the original
(negate, copy, two multiplies, add), each on one head of one block of tokens, every intermediate
through GM. The speed baseline the scorer compares attempts with."""
import pypto.language as pl

TOKENS = 256
WIDTH = 1024
HEAD_DIM = 128
HALF = 64
TOKEN_TILE = 32


@pl.jit.incore
def negate_half_k(q: pl.Tensor[[256, 1024], pl.FP32], rot: pl.Out[pl.Tensor[[256, 1024], pl.FP32]],
                  t0: pl.Scalar[pl.INDEX], c0: pl.Scalar[pl.INDEX]):
    upper = pl.load(q, [t0, c0 + HALF], [TOKEN_TILE, HALF])
    pl.store(pl.neg(upper), [t0, c0], rot)
    return rot


@pl.jit.incore
def copy_half_k(q: pl.Tensor[[256, 1024], pl.FP32], rot: pl.Out[pl.Tensor[[256, 1024], pl.FP32]],
                t0: pl.Scalar[pl.INDEX], c0: pl.Scalar[pl.INDEX]):
    lower = pl.load(q, [t0, c0], [TOKEN_TILE, HALF])
    pl.store(pl.add(lower, 0.0), [t0, c0 + HALF], rot)
    return rot


@pl.jit.incore
def mul_table_k(x: pl.Tensor[[256, 1024], pl.FP32], table: pl.Tensor[[256, 128], pl.FP32],
                y: pl.Out[pl.Tensor[[256, 1024], pl.FP32]], t0: pl.Scalar[pl.INDEX], c0: pl.Scalar[pl.INDEX]):
    xt = pl.load(x, [t0, c0], [TOKEN_TILE, HEAD_DIM])
    tt = pl.load(table, [t0, 0], [TOKEN_TILE, HEAD_DIM])
    pl.store(pl.mul(xt, tt), [t0, c0], y)
    return y


@pl.jit.incore
def add_k(a: pl.Tensor[[256, 1024], pl.FP32], b: pl.Tensor[[256, 1024], pl.FP32],
          out: pl.Out[pl.Tensor[[256, 1024], pl.FP32]], t0: pl.Scalar[pl.INDEX], c0: pl.Scalar[pl.INDEX]):
    at = pl.load(a, [t0, c0], [TOKEN_TILE, HEAD_DIM])
    bt = pl.load(b, [t0, c0], [TOKEN_TILE, HEAD_DIM])
    pl.store(pl.add(at, bt), [t0, c0], out)
    return out
