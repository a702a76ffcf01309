"""Incore functions of the port {{name}}.

Each function here becomes one runtime task on an AICore. It loads GM tensors into on-chip
tiles with pl.load (TLOAD), computes on the tiles and writes the result back with pl.store
(TSTORE). Producer -> consumer tile ops of one row block stay in one function (fusion), so
intermediates never round-trip through GM.

SRAM budget of scale_add_rows on a2a3 (Vec capacity 188416 B), as `port-check lint` estimates it:
  one FP32 tile is ROW_TILE x COLS x 4 B = 32 x 256 x 4 = 32768 B
  at most two tiles live at once: x_tile is dead after the mul, so scaled takes its buffer,
  and summed takes scaled's: 2 x 32768 = 65536 B (35 %)
Innermost tile dimension: COLS x 4 B = 1024 B, at least the 512 B a2a3 wants per row.
"""
import pypto.language as pl

ROWS = 512
COLS = 256
ROW_TILE = 32
SCALE = 2.0


@pl.jit.incore
def scale_add_rows(
    x: pl.Tensor[[512, 256], pl.FP32],
    y: pl.Tensor[[512, 256], pl.FP32],
    out: pl.Out[pl.Tensor[[512, 256], pl.FP32]],
):
    for rb in pl.range(ROWS // ROW_TILE):
        x_tile = pl.load(x, [rb * ROW_TILE, 0], [ROW_TILE, COLS])
        y_tile = pl.load(y, [rb * ROW_TILE, 0], [ROW_TILE, COLS])
        scaled = pl.mul(x_tile, SCALE)
        summed = pl.add(scaled, y_tile)
        pl.store(summed, [rb * ROW_TILE, 0], out)
    return out
