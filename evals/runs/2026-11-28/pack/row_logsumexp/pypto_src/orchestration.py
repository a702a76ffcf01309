"""Orchestration of the port row_logsumexp: the @pl.jit entry.

One `pl.spmd(N_BLOCKS)` launch (one submit; N_BLOCKS = 32 blocks on 32 AIV cores). Block b
computes lse for rows [16 b, 16 b + 16), ROW_TILE rows at a time, streaming the vocabulary in
COL_CHUNK-wide chunks with an online max / sum (see incore.py):
    m = -FLT_MAX;  s = 0
    m' = max(m, rowmax(x_c));  s = s * exp(m - m') + rowsum(exp(x_c - m'));  m = m'
    lse = m + log(s)
The max shift keeps every exp argument <= 0, so logits of any magnitude do not overflow.
"""
import pypto.language as pl
from incore import BLOCK_ROWS, COL_CHUNK, N_BLOCKS, N_CHUNKS, ROW_TILE


@pl.jit
def row_logsumexp(
    logits: pl.Tensor[[512, 2048], pl.FP32],
    lse: pl.Out[pl.Tensor[[512, 1], pl.FP32]],
):
    for b in pl.spmd(N_BLOCKS, name_hint="lse_rows"):
        for s in pl.range(BLOCK_ROWS // ROW_TILE):
            r0 = b * BLOCK_ROWS + s * ROW_TILE
            # -FLT_MAX, a finite floor for the running max (exp(floor - m') is 0, and stays finite for
            # -inf logits), and an empty running sum, so every chunk takes the same body. A [8, 1]
            # tile must be column-major (tile.full makes a row-major one that pto-isa rejects), so
            # the floor is the row_max of a tiny [8, 8] fill.
            floor = pl.tile.full([ROW_TILE, 8], dtype=pl.FP32, value=-3.4028234663852886e38)
            floor_tmp = pl.create_tile([ROW_TILE, 8], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
            run_max: pl.Tile[[ROW_TILE, 1], pl.FP32] = pl.row_max(floor, floor_tmp)
            run_sum = pl.mul(run_max, 0.0)
            # Unrolled, not pl.range: on a5sim a [8, 1] column tile carried through a pl.range
            # loop (iter_args) comes back wrong for 7 of its 8 rows (a2a3sim is right); unrolled,
            # the running max / sum are plain SSA values on both platforms.
            for c in pl.unroll(N_CHUNKS):
                xc = pl.load(logits, [r0, c * COL_CHUNK], [ROW_TILE, COL_CHUNK])
                tmp = pl.create_tile([ROW_TILE, COL_CHUNK], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
                chunk_max: pl.Tile[[ROW_TILE, 1], pl.FP32] = pl.row_max(xc, tmp)
                new_max = pl.maximum(run_max, chunk_max)
                rescale = pl.exp(pl.sub(run_max, new_max))
                ec = pl.row_expand_expdif(xc, new_max)
                chunk_sum: pl.Tile[[ROW_TILE, 1], pl.FP32] = pl.row_sum(ec, xc)
                run_sum = pl.add(pl.mul(run_sum, rescale), chunk_sum)
                run_max = new_max
            res = pl.add(pl.log(run_sum), run_max)
            lse = pl.store(res, [r0, 0], lse)
    return lse
