import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit
def exp_rows(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])  # expect: DSL101@9
    e = pl.exp(t)  # expect: DSL101@9
    pl.store(e, [0, 0], y)  # expect: DSL101
    return y
