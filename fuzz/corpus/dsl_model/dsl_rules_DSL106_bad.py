import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit
def two_exps(
    a: pl.Tensor[[ROWS, COLS], pl.FP32],
    c: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        parts = [pl.exp(ta) for _ in pl.range(2)]  # expect: DSL106@9
        s = pl.add(parts[0], parts[1])
        pl.store(s, [0, 0], c)
    return c
