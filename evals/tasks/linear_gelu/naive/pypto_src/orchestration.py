"""Orchestration of the naive form of linear_gelu: per block of 64 output columns, the matmul and five
vector kernels, every intermediate through GM."""
import pypto.language as pl
from incore import N_TILE, bias_k, cube_k, gelu_k, inner_k, proj_k, tanh_k


@pl.jit
def linear_gelu(
    x: pl.Tensor[[128, 512], pl.BF16],
    weight: pl.Tensor[[1024, 512], pl.BF16],
    bias: pl.Tensor[[1, 1024], pl.FP32],
    out: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
):
    h0 = pl.create_tensor([128, 1024], dtype=pl.FP32)
    h = pl.create_tensor([128, 1024], dtype=pl.FP32)
    c = pl.create_tensor([128, 1024], dtype=pl.FP32)
    u = pl.create_tensor([128, 1024], dtype=pl.FP32)
    t = pl.create_tensor([128, 1024], dtype=pl.FP32)
    for nb in pl.range(1024 // N_TILE):
        n0 = nb * N_TILE
        h0 = proj_k(x, weight, h0, n0)
        h = bias_k(h0, bias, h, n0)
        c = cube_k(h, c, n0)
        u = inner_k(h, c, u, n0)
        t = tanh_k(u, t, n0)
        out = gelu_k(h, t, out, n0)
    return out
