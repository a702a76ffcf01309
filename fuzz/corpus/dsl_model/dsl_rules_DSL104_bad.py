import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit.incore
def exp_kernel(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    tmp = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)  # expect: DSL104@11
    t = pl.load(x, [0, 0], [ROWS, COLS])
    pl.store(pl.exp(t), [0, 0], tmp)
    u = pl.load(tmp, [0, 0], [ROWS, COLS])
    pl.store(pl.mul(u, 0.5), [0, 0], y)
    return y


@pl.jit
def two_stage(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    y = exp_kernel(x, y)
    return y
