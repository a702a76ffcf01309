"""Incore functions of the naive form of rmsnorm_quant_int8: one kernel per operation of the original
(square, mean, reciprocal root, normalise, weight, absolute max, quantise, scale), each on one block of
tokens, every intermediate through GM. The speed baseline the scorer compares attempts with."""
import pypto.language as pl

TOKENS = 128
HIDDEN = 1024
TOKEN_TILE = 8
EPS = 1e-6
AMAX_EPS = 1e-6
INT8_MAX = 127.0


@pl.jit.incore
def square_k(x: pl.Tensor[[128, 1024], pl.FP32], sq: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    xt = pl.load(x, [t0, 0], [TOKEN_TILE, HIDDEN])
    pl.store(pl.mul(xt, xt), [t0, 0], sq)
    return sq


@pl.jit.incore
def mean_k(sq: pl.Tensor[[128, 1024], pl.FP32], ms: pl.Out[pl.Tensor[[128, 1], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    st = pl.load(sq, [t0, 0], [TOKEN_TILE, HIDDEN])
    scratch = pl.create_tile([TOKEN_TILE, HIDDEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(pl.mul(st, 1.0 / HIDDEN), scratch), [t0, 0], ms)
    return ms


@pl.jit.incore
def inv_rms_k(ms: pl.Tensor[[128, 1], pl.FP32], inv: pl.Out[pl.Tensor[[128, 1], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    m_row = pl.reshape(pl.load(ms, [t0, 0], [TOKEN_TILE, 1]), [1, TOKEN_TILE])
    ones = pl.tile.full([1, TOKEN_TILE], dtype=pl.FP32, value=1.0)
    inv_row = pl.div(ones, pl.sqrt(pl.add(m_row, EPS)))
    pl.store(pl.reshape(inv_row, [TOKEN_TILE, 1]), [t0, 0], inv)
    return inv


@pl.jit.incore
def normalise_k(x: pl.Tensor[[128, 1024], pl.FP32], inv: pl.Tensor[[128, 1], pl.FP32],
                xn: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    xt = pl.load(x, [t0, 0], [TOKEN_TILE, HIDDEN])
    it = pl.load(inv, [t0, 0], [TOKEN_TILE, 1])
    pl.store(pl.row_expand_mul(xt, it), [t0, 0], xn)
    return xn


@pl.jit.incore
def weight_k(xn: pl.Tensor[[128, 1024], pl.FP32], weight: pl.Tensor[[1, 1024], pl.FP32],
             y: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    xt = pl.load(xn, [t0, 0], [TOKEN_TILE, HIDDEN])
    wt = pl.load(weight, [0, 0], [1, HIDDEN])
    pl.store(pl.col_expand_mul(xt, wt), [t0, 0], y)
    return y


@pl.jit.incore
def amax_k(y: pl.Tensor[[128, 1024], pl.FP32], amax: pl.Out[pl.Tensor[[128, 1], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    yt = pl.load(y, [t0, 0], [TOKEN_TILE, HIDDEN])
    scratch = pl.create_tile([TOKEN_TILE, HIDDEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(pl.maximum(pl.abs(yt), AMAX_EPS), scratch), [t0, 0], amax)
    return amax


@pl.jit.incore
def quantise_k(y: pl.Tensor[[128, 1024], pl.FP32], amax: pl.Tensor[[128, 1], pl.FP32],
               q: pl.Out[pl.Tensor[[128, 1024], pl.INT8]], t0: pl.Scalar[pl.INDEX]):
    yt = pl.load(y, [t0, 0], [TOKEN_TILE, HIDDEN])
    at = pl.load(amax, [t0, 0], [TOKEN_TILE, 1])
    limit = pl.tile.full([TOKEN_TILE, HIDDEN], dtype=pl.FP32, value=INT8_MAX)
    steps = pl.mul(yt, pl.row_expand_div(limit, at))
    q_i32 = pl.cast(steps, target_type=pl.INT32, mode="rint")
    q_f16 = pl.cast(q_i32, target_type=pl.FP16, mode="round")
    pl.store(pl.cast(q_f16, target_type=pl.INT8, mode="trunc"), [t0, 0], q)
    return q


@pl.jit.incore
def scale_k(amax: pl.Tensor[[128, 1], pl.FP32], scale: pl.Out[pl.Tensor[[128, 1], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    a_row = pl.reshape(pl.load(amax, [t0, 0], [TOKEN_TILE, 1]), [1, TOKEN_TILE])
    pl.store(pl.reshape(pl.mul(a_row, 1.0 / INT8_MAX), [TOKEN_TILE, 1]), [t0, 0], scale)
    return scale
