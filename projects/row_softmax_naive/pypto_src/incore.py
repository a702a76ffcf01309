"""Incore functions of the naive port of row_softmax: one kernel per operation of the original
(max, subtract, exp, sum, divide), each loading its operands from GM and storing its result to GM.
The measured baseline the fused port (projects/row_softmax) is compared with in its PORTING.md."""
import pypto.language as pl

ROWS = 1024
COLS = 256
ROW_TILE = 32


@pl.jit.incore
def row_max_k(x: pl.Tensor[[1024, 256], pl.FP32], m: pl.Out[pl.Tensor[[1024, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [r0, 0], [ROW_TILE, COLS])
    scratch = pl.create_tile([ROW_TILE, COLS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(t, scratch), [r0, 0], m)
    return m


@pl.jit.incore
def sub_k(x: pl.Tensor[[1024, 256], pl.FP32], m: pl.Tensor[[1024, 1], pl.FP32],
          shifted: pl.Out[pl.Tensor[[1024, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [r0, 0], [ROW_TILE, COLS])
    mt = pl.load(m, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_sub(t, mt), [r0, 0], shifted)
    return shifted


@pl.jit.incore
def exp_k(shifted: pl.Tensor[[1024, 256], pl.FP32], e: pl.Out[pl.Tensor[[1024, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(shifted, [r0, 0], [ROW_TILE, COLS])
    pl.store(pl.exp(t), [r0, 0], e)
    return e


@pl.jit.incore
def row_sum_k(e: pl.Tensor[[1024, 256], pl.FP32], s: pl.Out[pl.Tensor[[1024, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(e, [r0, 0], [ROW_TILE, COLS])
    scratch = pl.create_tile([ROW_TILE, COLS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(t, scratch), [r0, 0], s)
    return s


@pl.jit.incore
def div_k(e: pl.Tensor[[1024, 256], pl.FP32], s: pl.Tensor[[1024, 1], pl.FP32],
          out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(e, [r0, 0], [ROW_TILE, COLS])
    st = pl.load(s, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_div(t, st), [r0, 0], out)
    return out
