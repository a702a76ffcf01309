"""Orchestration of the port rmsnorm_residual: the @pl.jit entry the golden runs.

One task per block of ROW_TILE tokens (512 / 8 = 64 tasks for 48 AIV cores). Every task gets
its own row slice of the inputs and the outputs, so the runtime sees disjoint output regions and
derives no false write-after-write chain between the tasks; the weight is read by all of them.
"""
import pypto.language as pl
from incore import rms_norm_residual_rows

TOKENS = 512
HIDDEN = 4096
ROW_TILE = 8


@pl.jit
def rmsnorm_residual(
    x: pl.Tensor[[512, 4096], pl.BF16],
    residual: pl.Tensor[[512, 4096], pl.BF16],
    weight: pl.Tensor[[1, 4096], pl.BF16],
    y: pl.Out[pl.Tensor[[512, 4096], pl.BF16]],
    residual_out: pl.Out[pl.Tensor[[512, 4096], pl.BF16]],
):
    for rb in pl.parallel(TOKENS // ROW_TILE):
        r0 = rb * ROW_TILE
        x_rows = pl.slice(x, [ROW_TILE, HIDDEN], [r0, 0])
        residual_rows = pl.slice(residual, [ROW_TILE, HIDDEN], [r0, 0])
        y_rows = pl.slice(y, [ROW_TILE, HIDDEN], [r0, 0])
        residual_out_rows = pl.slice(residual_out, [ROW_TILE, HIDDEN], [r0, 0])
        rms_norm_residual_rows(x_rows, residual_rows, weight, y_rows, residual_out_rows)
    return y, residual_out
