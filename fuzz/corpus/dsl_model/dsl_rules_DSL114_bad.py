import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit
def softplus(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        e = pl.exponent(t)  # expect: DSL114@13
        s = pl.tile.add_scalar(e, 1.0)  # expect: DSL114@13
        pl.store(pl.log(s), [0, 0], y)
    return y
