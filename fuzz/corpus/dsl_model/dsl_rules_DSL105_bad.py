import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit
def repeat_exp(
    a: pl.Tensor[[ROWS, COLS], pl.FP32],
    c: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [ROWS, COLS])
        for _ in range(3):  # expect: DSL105@9
            t = pl.exp(t)
        pl.store(t, [0, 0], c)
    return c
