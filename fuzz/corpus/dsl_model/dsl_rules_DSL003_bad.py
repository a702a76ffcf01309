import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit
def exp_rows(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="exp_rows"):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        # port-check: ignore[DSL117]  # expect: DSL003@30
        e = pl.exp(t)
        pl.store(e, [0, 0], y)
    return y
