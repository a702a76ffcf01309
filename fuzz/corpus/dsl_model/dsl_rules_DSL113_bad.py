import pypto.language as pl

ROWS = 64
COLS = 128


@pl.program
class AddProgram:
    @pl.function(type=pl.FunctionType.InCore)
    def add_tile(
        self,
        a: pl.Tensor[[64, 128], pl.FP32],
        c: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 128])
        out = pl.store(pl.add(t, t), [0, 0], c)
        return out


@pl.jit  # expect: DSL113
def add_jit(
    a: pl.Tensor[[ROWS, COLS], pl.FP32],
    c: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [ROWS, COLS])
        pl.store(pl.add(t, t), [0, 0], c)
    return c
