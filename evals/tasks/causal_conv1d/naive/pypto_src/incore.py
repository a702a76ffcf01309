"""Incore functions of the naive form of causal_conv1d: the input copied below 8 zero rows (the halo),
the bias broadcast, then one multiply-add kernel per tap, each intermediate sum through GM. The speed
baseline the scorer compares attempts with."""
import pypto.language as pl

TOKENS = 256
CHANNELS = 512
WIDTH = 4
HALO = 8
TOKEN_TILE = 32


@pl.jit.incore
def zero_halo_k(xp: pl.Out[pl.Tensor[[264, 512], pl.FP32]]):
    pl.store(pl.tile.full([HALO, CHANNELS], dtype=pl.FP32, value=0.0), [0, 0], xp)
    return xp


@pl.jit.incore
def copy_k(x: pl.Tensor[[256, 512], pl.FP32], xp: pl.Out[pl.Tensor[[264, 512], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    xt = pl.load(x, [t0, 0], [TOKEN_TILE, CHANNELS])
    pl.store(pl.add(xt, 0.0), [t0 + HALO, 0], xp)
    return xp


@pl.jit.incore
def bias_k(bias: pl.Tensor[[1, 512], pl.FP32], acc: pl.Out[pl.Tensor[[256, 512], pl.FP32]], t0: pl.Scalar[pl.INDEX]):
    zeros = pl.tile.full([TOKEN_TILE, CHANNELS], dtype=pl.FP32, value=0.0)
    bt = pl.load(bias, [0, 0], [1, CHANNELS])
    pl.store(pl.col_expand_add(zeros, bt), [t0, 0], acc)
    return acc


@pl.jit.incore
def tap_k(xp: pl.Tensor[[264, 512], pl.FP32], weight_t: pl.Tensor[[4, 512], pl.FP32],
          acc_in: pl.Tensor[[256, 512], pl.FP32], acc_out: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
          t0: pl.Scalar[pl.INDEX], k: pl.Scalar[pl.INDEX]):
    # Tap k of output t reads token t - (WIDTH - 1) + k, at row t + HALO - (WIDTH - 1) + k of xp.
    xt = pl.load(xp, [t0 + HALO - (WIDTH - 1) + k, 0], [TOKEN_TILE, CHANNELS])
    wt = pl.load(weight_t, [k, 0], [1, CHANNELS])
    at = pl.load(acc_in, [t0, 0], [TOKEN_TILE, CHANNELS])
    pl.store(pl.add(at, pl.col_expand_mul(xt, wt)), [t0, 0], acc_out)
    return acc_out
