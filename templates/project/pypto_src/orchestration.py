"""Orchestration of the port {{name}}: the @pl.jit entry the golden runs.

The entry runs on the AICPU orchestrator: it only creates GM tensors, loops and calls incore
functions (one call = one task). The PTO2 runtime orders the tasks by the tensors they share
(TensorMap), never by statement order. Every tensor the golden compares is pl.Out or pl.InOut
here, on the entry; golden.py lists the arguments in this order.
"""
import pypto.language as pl
from incore import scale_add_rows


@pl.jit
def scale_add(
    x: pl.Tensor[[512, 256], pl.FP32],
    y: pl.Tensor[[512, 256], pl.FP32],
    out: pl.Out[pl.Tensor[[512, 256], pl.FP32]],
):
    out = scale_add_rows(x, y, out)
    return out
