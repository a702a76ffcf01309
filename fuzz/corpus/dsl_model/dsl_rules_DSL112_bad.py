import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit
def relu_rows(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = x[0:ROWS, 0:COLS]  # expect: DSL112
        r = pl.relu(t)
        y[0:ROWS, 0:COLS] = r  # expect: DSL112
    return y
