"""Incore code of the port attention_prefill: make_bias, the causal mask made on chip.

The attention walks each 64-row query tile qb in 16-row chunks r. The mask of the rows
qb * 64 + r * 16 + i (i < 16) over the 256 keys j is a 256-column window of one [16, 496] pattern:
pattern column c is masked (-1e30) where c >= i + 241, and the window starts at column
c0 = 240 - qb * 64 - r * 16, so key j = c - c0 is masked exactly where j > qb * 64 + r * 16 + i.
Stored in FP32 so the attention adds it without a cast (a BF16 pattern halves its bytes but costs a
cast per chunk: 7.05 against 6.98 us estimated).
"""
import pypto.language as pl

NUM_HEADS = 4
NUM_KV_HEADS = 2
SEQ = 256
HEAD_DIM = 64
Q_TILE = 64
ROWS = 16  # query rows per iteration of the row loop (8 per AIV)
ATTN_SCALE = 0.125
MASKED = -1.0e30
PATTERN = 496  # SEQ + (SEQ - ROWS): the window start runs from 240 down to 0
DIAG = 241  # PATTERN - SEQ + 1


@pl.jit.incore
def make_bias(bias: pl.Out[pl.Tensor[[16, 496], pl.FP32]]):
    # upper tri is 1 where column c >= i + DIAG (a constant diagonal: ptoas 0.27 takes no run-time one).
    cut = pl.tile.tri(DIAG, [ROWS, PATTERN], dtype=pl.FP32, upper=True)
    pl.store(pl.mul(cut, MASKED), [0, 0], bias)
    return bias
