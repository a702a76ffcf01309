import pypto.language as pl


@pl.program
class Halve:
    @pl.function(type=pl.FunctionType.InCore)
    def halve_tile(
        self,
        x: pl.Tile[[64, 128], pl.FP32],  # expect: DSL107
        y: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        h = pl.mul(x, 0.5)
        out = pl.store(h, [0, 0], y)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def halve(
        self,
        x: pl.Tensor[[64, 128], pl.FP32],
        y: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        y = self.halve_tile(x, y)
        return y
