import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit
def scale(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    alpha: pl.InOut[pl.Scalar[pl.FP32]],  # expect: DSL108
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        pl.store(pl.mul(t, alpha), [0, 0], y)
    return y
