import pypto.language as pl

ROWS = 64
COLS = 128


@pl.jit.incore
def add_kernel(a: pl.Tensor, b: pl.Tensor, out: pl.Out[pl.Tensor]):
    ta = pl.load(a, [0, 0], [ROWS, COLS])
    tb = pl.load(b, [0, 0], [ROWS, COLS])
    pl.store(pl.add(ta, tb), [0, 0], out)
    return out


@pl.jit
def add(
    a: pl.Tensor[[ROWS, COLS], pl.FP32],
    b: pl.Tensor[[ROWS, COLS], pl.FP32],
    c: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    d: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    hist: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    c = add_kernel(a, b, c)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [ROWS, COLS])
        pl.store(pl.exp(t), [0, 0], d)
        h = pl.load(hist, [0, 0], [ROWS, COLS])
        pl.store(pl.add(h, t), [0, 0], hist)
    return d
