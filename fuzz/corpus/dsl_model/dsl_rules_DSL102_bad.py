import pypto.language as pl

ROWS = 64
COLS = 128
BLOCKS = 4


@pl.jit
def scale_blocks(
    x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale_blocks"):
        for b in pl.parallel(BLOCKS):  # expect: DSL102
            t = pl.load(x, [b * ROWS, 0], [ROWS, COLS])
            s = pl.mul(t, 2.0)
            pl.store(s, [b * ROWS, 0], y)
    return y
