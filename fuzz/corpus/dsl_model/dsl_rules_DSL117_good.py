import pypto.language as pl


@pl.jit
def wide_rows(
    a: pl.Tensor[[64, 128], pl.FP32],
    b: pl.Tensor[[64, 128], pl.FP32],
    c: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [64, 128])
        tb = pl.load(b, [0, 0], [64, 128])
        m = pl.maximum(ta, tb)
        pl.store(m, [0, 0], c)
    return c
