"""Incore code of the port sliding_window_attention: one mixed cube + vector scope per (head, query tile).

Per (query head h, 64-token query tile qb), key blocks kb = qb, qb-1, qb-2 (diagonal first, at most 3:
the window of 100 tokens spans at most 3 blocks of 64). The window/causal mask is made on chip with
two pl.tile.tri masks whose diagonals depend on the block distance d = qb - kb and on the vector
sub-block (pl.split(UP_DOWN) gives each AIV 32 of the 64 rows):
  visible(r, c) <=> 0 <= 64 d + r - c < 100 <=> c <= r + 64 d  and  c >= r + 64 d - 99.
The diagonal block comes first, so every row has a finite running max before a fully masked row of
an older block arrives (exp(-1e30 - m) = 0).
"""
import pypto.language as pl

NUM_HEADS = 4
SEQ = 256
HEAD_DIM = 128
Q_TILE = 64
KV_BLOCK = 64
HALF = 32
WINDOW = 100
ATTN_SCALE = 0.08838834764831845
NEG = -1.0e30


@pl.jit.incore
def window_bias_k(window_bias: pl.Out[pl.Tensor[[192, 64], pl.FP32]]):
    """Block d of window_bias (the key block qb - d of query tile qb): 0 where 0 <= 64 d + r - c < 100,
    else <= -1e30 (t = r - c + 64 d is integer valued: a masked t is at least 1 outside [0, 99])."""
    # col[0, c] = c (this ptoas, 0.27, parses neither pto.tci nor pto.ttri): 8 scalar writes, then
    # doubled three times by concatenating the row with itself plus its length.
    col8 = pl.tile.full([1, 8], dtype=pl.FP32, value=0.0)
    for c in pl.range(8):
        pl.tile.write(col8, [0, c], pl.cast(pl.cast(c, pl.INT32), pl.FP32))
    col16 = pl.tile.concat(col8, pl.tile.adds(col8, 8.0))
    col32 = pl.tile.concat(col16, pl.tile.adds(col16, 16.0))
    col = pl.tile.concat(col32, pl.tile.adds(col32, 32.0))
    cmat = pl.col_expand(pl.tile.full([Q_TILE, KV_BLOCK], dtype=pl.FP32, value=0.0), col)
    diff = pl.sub(pl.transpose(cmat, 0, 1), cmat)
    # d = 0: t = diff in [-63, 63], only the causal side can fail: bias = min(diff, 0) * 1e30.
    pl.store(pl.tile.muls(pl.tile.minimums(diff, 0.0), -NEG), [0, 0], window_bias)
    # d = 1, 2: t = diff + 64 d >= 1, only the window side can fail: bias = -max(t - 99, 0) * 1e30.
    pl.store(pl.tile.muls(pl.tile.maximums(pl.tile.adds(diff, KV_BLOCK - (WINDOW - 1.0)), 0.0), NEG), [KV_BLOCK, 0], window_bias)
    pl.store(pl.tile.muls(pl.tile.maximums(pl.tile.adds(diff, 2 * KV_BLOCK - (WINDOW - 1.0)), 0.0), NEG), [2 * KV_BLOCK, 0], window_bias)
    return window_bias
