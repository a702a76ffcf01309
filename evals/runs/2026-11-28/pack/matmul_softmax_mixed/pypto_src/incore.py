"""Constants of the port matmul_softmax_mixed; the kernel itself is the pl.spmd body in orchestration.py.

One mixed cube + vector kernel, one SPMD dispatch of BLOCKS blocks. Block b owns Q_TILE query rows
of head h = b // TILES_PER_HEAD and walks them in CHUNK-row steps (pl.pipeline, two stages):

  AIC  s = q_chunk @ k_h^T              [CHUNK, 256] FP32 (BF16 operands, FP32 accumulation) -> AIV
  AIV  s = s * 0.125                    (a power of two: exact)
       m = rowmax(s)
       e = exp(s - m)                   (row_expand_expdif: the subtract and the exp in one op)
       p = e / rowsum(e)                -> probs rows [b*Q_TILE + c*CHUNK, +CHUNK)

pl.split(UP_DOWN) gives each of the cluster's two AIVs CHUNK/2 rows; s crosses cube -> vector through
the TPUSH/TPOP ring and never reaches GM. The max subtraction keeps exp <= 1 for scores of any
magnitude; the row sum is >= 1, so the division never sees 0.

Why these sizes (port-check report, PORTING.md): 16 blocks fit one wave on a2a3 (24 clusters) and a5
(18); the device time is bound by the vector unit's per-row cost, so fewer, larger blocks are slower
(Q_TILE 64: 4.7 us) and more, smaller blocks need a second wave. CHUNK is the cube's minimum M (16):
two steps per block let loads, cube, vector and stores of the two chunks overlap.
"""

NUM_HEADS = 4
Q_LEN = 128
KV_LEN = 256
HEAD_DIM = 64
SCALE = 0.125  # HEAD_DIM ** -0.5
Q_TILE = 32
TILES_PER_HEAD = Q_LEN // Q_TILE
BLOCKS = NUM_HEADS * TILES_PER_HEAD
CHUNK = 16  # rows per inner step (8 per AIV); 8 fails: the cube's M minimum is 16
CHUNKS = Q_TILE // CHUNK
