"""Orchestration of the naive form of causal_conv1d: the halo and the copy, then per block of 32
tokens the bias and four taps, each partial sum through GM."""
import pypto.language as pl
from incore import TOKEN_TILE, bias_k, copy_k, tap_k, zero_halo_k


@pl.jit
def causal_conv1d(
    x: pl.Tensor[[256, 512], pl.FP32],
    weight_t: pl.Tensor[[4, 512], pl.FP32],
    bias: pl.Tensor[[1, 512], pl.FP32],
    out: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
):
    xp = pl.create_tensor([264, 512], dtype=pl.FP32)
    a0 = pl.create_tensor([256, 512], dtype=pl.FP32)
    a1 = pl.create_tensor([256, 512], dtype=pl.FP32)
    a2 = pl.create_tensor([256, 512], dtype=pl.FP32)
    a3 = pl.create_tensor([256, 512], dtype=pl.FP32)
    xp = zero_halo_k(xp)
    for tb in pl.range(256 // TOKEN_TILE):
        c0 = tb * TOKEN_TILE
        xp = copy_k(x, xp, c0)
    for tb in pl.range(256 // TOKEN_TILE):
        t0 = tb * TOKEN_TILE
        a0 = bias_k(bias, a0, t0)
        k0 = 0
        k1 = 1
        k2 = 2
        k3 = 3
        a1 = tap_k(xp, weight_t, a0, a1, t0, k0)
        a2 = tap_k(xp, weight_t, a1, a2, t0, k1)
        a3 = tap_k(xp, weight_t, a2, a3, t0, k2)
        out = tap_k(xp, weight_t, a3, out, t0, k3)
    return out
