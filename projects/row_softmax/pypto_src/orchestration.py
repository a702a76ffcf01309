"""Orchestration of the port row_softmax: the @pl.jit entry the golden runs.

One call of the incore function is one task; it walks every row block itself, so the whole
softmax is one dispatch. `out` is pl.Out on the entry so the golden can read it back.
"""
import pypto.language as pl
from incore import softmax_rows


@pl.jit
def row_softmax(
    x: pl.Tensor[[1024, 256], pl.FP32],
    out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]],
):
    out = softmax_rows(x, out)
    return out
