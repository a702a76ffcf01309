"""Row log-sum-exp: lse[r] = max_r + log(sum_c exp(logits[r, c] - max_r)).

One fused vector kernel, one SPMD task: each block owns BLOCK_ROWS rows and
walks them in ROW_TILE-row tiles through a double-buffered pipeline (the loads
of the next tile overlap the reductions / exp / log of the current one).

A tile is loaded as two HALF-column pieces (two full tiles then fit in UB) and
each piece is viewed as [FOLD_ROWS, FOLD_COLS] (each logits row = FOLD
consecutive view rows), so the row reductions run on short rows; the [FOLD_ROWS, 1]
partials are viewed back as [ROW_TILE, FOLD] and reduced once more. The max
shift (exp(x - max) via row_expand_expdif) keeps large logits from overflowing.
"""
import pypto.language as pl

TOKENS = 512
VOCAB = 2048
HALF = VOCAB // 2
BLOCK_ROWS = 16         # rows per SPMD block
ROW_TILE = 8            # rows per pipelined tile
FOLD_COLS = 128         # width of the folded half-tile view
FOLD = HALF // FOLD_COLS
FOLD_ROWS = ROW_TILE * FOLD


@pl.jit
def row_logsumexp(
    logits: pl.Tensor[[TOKENS, VOCAB], pl.FP32],
    lse: pl.Out[pl.Tensor[[TOKENS, 1], pl.FP32]],
):
    for b in pl.spmd(TOKENS // BLOCK_ROWS, name_hint="row_lse"):
        for s in pl.pipeline(BLOCK_ROWS // ROW_TILE, stage=2):
            r = b * BLOCK_ROWS + s * ROW_TILE
            x_lo = pl.reshape(logits[r : r + ROW_TILE, 0:HALF], [FOLD_ROWS, FOLD_COLS])
            x_hi = pl.reshape(logits[r : r + ROW_TILE, HALF:VOCAB], [FOLD_ROWS, FOLD_COLS])
            part_max = pl.reshape(pl.maximum(pl.row_max(x_lo), pl.row_max(x_hi)), [ROW_TILE, FOLD])
            row_max = pl.row_max(part_max)
            fold_max = pl.reshape(pl.row_expand_add(pl.full([ROW_TILE, FOLD], dtype=pl.FP32, value=0.0), row_max),
                                  [FOLD_ROWS, 1])
            e_lo = pl.row_expand_expdif(x_lo, fold_max)
            e_hi = pl.row_expand_expdif(x_hi, fold_max)
            part_sum = pl.reshape(pl.add(pl.row_sum(e_lo), pl.row_sum(e_hi)), [ROW_TILE, FOLD])
            row_sum = pl.row_sum(part_sum)
            lse[r : r + ROW_TILE, :] = pl.add(pl.log(row_sum), row_max)
    return lse
