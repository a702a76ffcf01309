"""Orchestration of the naive port of rmsnorm_residual: per block of 8 tokens, nine dispatches,
every intermediate (h, h^2, mean of the squares, + eps, inv_rms, h * inv_rms, * weight) through GM,
three of them FP32 [512, 4096] tensors plus h itself."""
import pypto.language as pl
from incore import (ROW_TILE, add_eps_k, add_k, cast_y_k, mean_k, residual_out_k, rsqrt_k, scale_k,
                    square_k, weight_k)


@pl.jit
def rmsnorm_residual(
    x: pl.Tensor[[512, 4096], pl.BF16],
    residual: pl.Tensor[[512, 4096], pl.BF16],
    weight: pl.Tensor[[1, 4096], pl.BF16],
    y: pl.Out[pl.Tensor[[512, 4096], pl.BF16]],
    residual_out: pl.Out[pl.Tensor[[512, 4096], pl.BF16]],
):
    h = pl.create_tensor([512, 4096], dtype=pl.FP32)
    sq = pl.create_tensor([512, 4096], dtype=pl.FP32)
    ms = pl.create_tensor([512, 1], dtype=pl.FP32)
    ms_eps = pl.create_tensor([512, 1], dtype=pl.FP32)
    inv_rms = pl.create_tensor([512, 1], dtype=pl.FP32)
    hn = pl.create_tensor([512, 4096], dtype=pl.FP32)
    hw = pl.create_tensor([512, 4096], dtype=pl.FP32)
    for rb in pl.range(512 // ROW_TILE):
        r0 = rb * ROW_TILE
        h = add_k(x, residual, h, r0)
        residual_out = residual_out_k(h, residual_out, r0)
        sq = square_k(h, sq, r0)
        ms = mean_k(sq, ms, r0)
        ms_eps = add_eps_k(ms, ms_eps, r0)
        inv_rms = rsqrt_k(ms_eps, inv_rms, r0)
        hn = scale_k(h, inv_rms, hn, r0)
        hw = weight_k(hn, weight, hw, r0)
        y = cast_y_k(hw, y, r0)
    return y, residual_out
