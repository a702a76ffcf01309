import pypto.language as pl


@pl.program
class Halve:
    @pl.function(type=pl.FunctionType.InCore)
    def halve_tile(
        self,
        x,  # expect: DSL118@9
        y: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 128])
        out = pl.store(pl.mul(t, 0.5), [0, 0], y)
        return out
