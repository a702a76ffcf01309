"""Orchestration of the naive port of layernorm: per block of 8 rows, nine dispatches, every
intermediate (mean, centred values, squares, variance, variance + eps, standard deviation,
normalised values, values scaled by gamma) through GM."""
import pypto.language as pl
from incore import (ROW_TILE, add_eps_k, beta_k, center_k, div_k, gamma_k, mean_k, sqrt_k,
                    square_k, var_k)


@pl.jit
def layernorm(
    x: pl.Tensor[[1024, 768], pl.FP32],
    gamma: pl.Tensor[[1, 768], pl.FP32],
    beta: pl.Tensor[[1, 768], pl.FP32],
    y: pl.Out[pl.Tensor[[1024, 768], pl.FP32]],
):
    mean = pl.create_tensor([1024, 1], dtype=pl.FP32)
    centered = pl.create_tensor([1024, 768], dtype=pl.FP32)
    sq = pl.create_tensor([1024, 768], dtype=pl.FP32)
    var = pl.create_tensor([1024, 1], dtype=pl.FP32)
    var_eps = pl.create_tensor([1024, 1], dtype=pl.FP32)
    std = pl.create_tensor([1024, 1], dtype=pl.FP32)
    normed = pl.create_tensor([1024, 768], dtype=pl.FP32)
    scaled = pl.create_tensor([1024, 768], dtype=pl.FP32)
    for rb in pl.range(1024 // ROW_TILE):
        r0 = rb * ROW_TILE
        mean = mean_k(x, mean, r0)
        centered = center_k(x, mean, centered, r0)
        sq = square_k(centered, sq, r0)
        var = var_k(sq, var, r0)
        var_eps = add_eps_k(var, var_eps, r0)
        std = sqrt_k(var_eps, std, r0)
        normed = div_k(centered, std, normed, r0)
        scaled = gamma_k(normed, gamma, scaled, r0)
        y = beta_k(scaled, beta, y, r0)
    return y
