"""Orchestration of the naive form of rmsnorm_quant_int8: per block of 8 tokens, eight dispatches,
every intermediate through GM."""
import pypto.language as pl
from incore import (TOKEN_TILE, amax_k, inv_rms_k, mean_k, normalise_k, quantise_k, scale_k, square_k,
                    weight_k)


@pl.jit
def rmsnorm_quant(
    x: pl.Tensor[[128, 1024], pl.FP32],
    weight: pl.Tensor[[1, 1024], pl.FP32],
    q: pl.Out[pl.Tensor[[128, 1024], pl.INT8]],
    scale: pl.Out[pl.Tensor[[128, 1], pl.FP32]],
):
    sq = pl.create_tensor([128, 1024], dtype=pl.FP32)
    ms = pl.create_tensor([128, 1], dtype=pl.FP32)
    inv = pl.create_tensor([128, 1], dtype=pl.FP32)
    xn = pl.create_tensor([128, 1024], dtype=pl.FP32)
    y = pl.create_tensor([128, 1024], dtype=pl.FP32)
    amax = pl.create_tensor([128, 1], dtype=pl.FP32)
    for tb in pl.range(128 // TOKEN_TILE):
        t0 = tb * TOKEN_TILE
        sq = square_k(x, sq, t0)
        ms = mean_k(sq, ms, t0)
        inv = inv_rms_k(ms, inv, t0)
        xn = normalise_k(x, inv, xn, t0)
        y = weight_k(xn, weight, y, t0)
        amax = amax_k(y, amax, t0)
        q = quantise_k(y, amax, q, t0)
        scale = scale_k(amax, scale, t0)
    return q, scale
