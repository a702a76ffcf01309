"""Incore function of the port row_softmax.

softmax_rows runs on an AIV core. Per block of ROW_TILE rows it loads the rows once (TLOAD),
computes max -> subtract -> exp -> sum -> divide on tiles, and stores the result once (TSTORE):
the five producer -> consumer steps are fused, so no intermediate round-trips through GM.

SRAM budget on a2a3 (Vec capacity 188416 B), one block:
  x_tile, the two reduction scratch tiles, shifted, exps, probs: ROW_TILE x COLS x 4 B = 65536 B each
  row_max, row_sum: ROW_TILE x 1 x 4 B, 32-byte aligned
  port-check's estimate (MemoryReuse shares dead buffers): see PORTING.md
Innermost run: COLS x 4 B = 1024 B, above the 512 B a2a3 wants per TLOAD/TSTORE row.
"""
import pypto.language as pl

ROWS = 1024
COLS = 256
ROW_TILE = 64
# The row block is the port's schedule knob: `port-check tune` tries these (docs/tune.md).
TUNABLES = {"ROW_TILE": (8, 16, 32, 64, 128, 256)}


@pl.jit.incore
def softmax_rows(
    x: pl.Tensor[[1024, 256], pl.FP32],
    out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]],
):
    for rb in pl.range(ROWS // ROW_TILE):
        x_tile = pl.load(x, [rb * ROW_TILE, 0], [ROW_TILE, COLS])
        max_scratch = pl.create_tile([ROW_TILE, COLS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        row_max: pl.Tile[[ROW_TILE, 1], pl.FP32] = pl.row_max(x_tile, max_scratch)
        shifted = pl.row_expand_sub(x_tile, row_max)
        exps = pl.exp(shifted)
        sum_scratch = pl.create_tile([ROW_TILE, COLS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        row_sum: pl.Tile[[ROW_TILE, 1], pl.FP32] = pl.row_sum(exps, sum_scratch)
        probs = pl.row_expand_div(exps, row_sum)
        pl.store(probs, [rb * ROW_TILE, 0], out)
    return out
