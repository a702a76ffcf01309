"""Orchestration of the naive form of embedding_gather: one dispatch per token to copy its table row
(the id read here), then one scale dispatch per block of 32 tokens.

The token loop's index is not called `t`: PyPTO e2d0f78's orchestration codegen emits the
temporary of `pl.tensor.read` as a C++ variable `t` too, which shadows such an index, and each row
is then written at its id instead of its token (only row 0 of `out` came out right)."""
import pypto.language as pl
from incore import TOKEN_TILE, gather_row_k, scale_k


@pl.jit
def embed(
    ids: pl.Tensor[[256], pl.INT32],
    table: pl.Tensor[[4096, 512], pl.FP32],
    out: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
):
    rows = pl.create_tensor([256, 512], dtype=pl.FP32)
    for tok in pl.range(256):
        src = pl.cast(pl.tensor.read(ids, [tok]), pl.INDEX)
        rows = gather_row_k(table, rows, src, tok)
    for tb in pl.range(256 // TOKEN_TILE):
        t0 = tb * TOKEN_TILE
        out = scale_k(rows, out, t0)
    return out
