"""Orchestration of the naive form of row_logsumexp: per block of 8 rows, five dispatches, every
intermediate (row max, shifted, exponentials, row sum) through GM."""
import pypto.language as pl
from incore import ROW_TILE, exp_k, log_add_k, row_max_k, row_sum_k, sub_k


@pl.jit
def row_logsumexp(
    logits: pl.Tensor[[512, 2048], pl.FP32],
    lse: pl.Out[pl.Tensor[[512, 1], pl.FP32]],
):
    m = pl.create_tensor([512, 1], dtype=pl.FP32)
    shifted = pl.create_tensor([512, 2048], dtype=pl.FP32)
    e = pl.create_tensor([512, 2048], dtype=pl.FP32)
    s = pl.create_tensor([512, 1], dtype=pl.FP32)
    for rb in pl.range(512 // ROW_TILE):
        r0 = rb * ROW_TILE
        m = row_max_k(logits, m, r0)
        shifted = sub_k(logits, m, shifted, r0)
        e = exp_k(shifted, e, r0)
        s = row_sum_k(e, s, r0)
        lse = log_add_k(s, m, lse, r0)
    return lse
