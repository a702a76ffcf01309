import pypto.language as pl


@pl.jit
def narrow_rows(
    a: pl.Tensor[[256, 32], pl.FP32],
    b: pl.Tensor[[256, 32], pl.FP32],
    c: pl.Out[pl.Tensor[[256, 32], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [256, 32])  # expect: DSL117@14
        tb = pl.load(b, [0, 0], [256, 32])  # expect: DSL117@14
        m = pl.maximum(ta, tb)
        pl.store(m, [0, 0], c)  # expect: DSL117@9
    return c
