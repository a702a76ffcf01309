"""Incore functions of the naive form of row_logsumexp: one kernel per operation of the original
(row max, subtract, exp, row sum, log and add), each on one block of 8 rows, every intermediate
through GM. The speed baseline the scorer compares attempts with."""
import pypto.language as pl

TOKENS = 512
VOCAB = 2048
ROW_TILE = 8


@pl.jit.incore
def row_max_k(x: pl.Tensor[[512, 2048], pl.FP32], m: pl.Out[pl.Tensor[[512, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [r0, 0], [ROW_TILE, VOCAB])
    scratch = pl.create_tile([ROW_TILE, VOCAB], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(t, scratch), [r0, 0], m)
    return m


@pl.jit.incore
def sub_k(x: pl.Tensor[[512, 2048], pl.FP32], m: pl.Tensor[[512, 1], pl.FP32],
          shifted: pl.Out[pl.Tensor[[512, 2048], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [r0, 0], [ROW_TILE, VOCAB])
    mt = pl.load(m, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_sub(t, mt), [r0, 0], shifted)
    return shifted


@pl.jit.incore
def exp_k(shifted: pl.Tensor[[512, 2048], pl.FP32], e: pl.Out[pl.Tensor[[512, 2048], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(shifted, [r0, 0], [ROW_TILE, VOCAB])
    pl.store(pl.exp(t), [r0, 0], e)
    return e


@pl.jit.incore
def row_sum_k(e: pl.Tensor[[512, 2048], pl.FP32], s: pl.Out[pl.Tensor[[512, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(e, [r0, 0], [ROW_TILE, VOCAB])
    scratch = pl.create_tile([ROW_TILE, VOCAB], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(t, scratch), [r0, 0], s)
    return s


@pl.jit.incore
def log_add_k(s: pl.Tensor[[512, 1], pl.FP32], m: pl.Tensor[[512, 1], pl.FP32],
              lse: pl.Out[pl.Tensor[[512, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    s_row = pl.reshape(pl.load(s, [r0, 0], [ROW_TILE, 1]), [1, ROW_TILE])
    m_row = pl.reshape(pl.load(m, [r0, 0], [ROW_TILE, 1]), [1, ROW_TILE])
    pl.store(pl.reshape(pl.add(pl.log(s_row), m_row), [ROW_TILE, 1]), [r0, 0], lse)
    return lse
