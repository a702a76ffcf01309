"""Orchestration of the naive port of row_softmax: per block of 32 rows, five dispatches, every
intermediate (row max, shifted, exponentials, row sum) through GM."""
import pypto.language as pl
from incore import ROW_TILE, div_k, exp_k, row_max_k, row_sum_k, sub_k


@pl.jit
def row_softmax(
    x: pl.Tensor[[1024, 256], pl.FP32],
    out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]],
):
    m = pl.create_tensor([1024, 1], dtype=pl.FP32)
    shifted = pl.create_tensor([1024, 256], dtype=pl.FP32)
    e = pl.create_tensor([1024, 256], dtype=pl.FP32)
    s = pl.create_tensor([1024, 1], dtype=pl.FP32)
    for rb in pl.range(1024 // ROW_TILE):
        r0 = rb * ROW_TILE
        m = row_max_k(x, m, r0)
        shifted = sub_k(x, m, shifted, r0)
        e = exp_k(shifted, e, r0)
        s = row_sum_k(e, s, r0)
        out = div_k(e, s, out, r0)
    return out
