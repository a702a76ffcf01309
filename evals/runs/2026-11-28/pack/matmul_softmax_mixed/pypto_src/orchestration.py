"""Orchestration of the port matmul_softmax_mixed: one SPMD dispatch of the fused kernel.

attn_probs(query [512, 64] BF16, key [1024, 64] BF16, probs [512, 256] FP32 out): BLOCKS mixed
cube + vector blocks, each the scores and softmax of 32 query rows of one head (incore.py explains
the kernel). The K block of the head is loaded into L1 once per block, transposed as a view.
"""
import pypto.language as pl
from incore import BLOCKS, CHUNK, CHUNKS, HEAD_DIM, KV_LEN, Q_TILE, SCALE, TILES_PER_HEAD


@pl.jit
def attn_probs(
    query: pl.Tensor[[512, 64], pl.BF16],
    key: pl.Tensor[[1024, 64], pl.BF16],
    probs: pl.Out[pl.Tensor[[512, 256], pl.FP32]],
):
    for b in pl.spmd(BLOCKS, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="attn_probs_tile"):
        k0 = (b // TILES_PER_HEAD) * KV_LEN
        k_t = pl.tile.transpose_view(pl.load(key, [k0, 0], [KV_LEN, HEAD_DIM], target_memory=pl.MemorySpace.Mat))
        for c in pl.pipeline(CHUNKS, stage=2):
            r0 = b * Q_TILE + c * CHUNK
            q_t = pl.load(query, [r0, 0], [CHUNK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
            s = pl.mul(pl.matmul(q_t, k_t), SCALE)
            tmp = pl.create_tile([CHUNK, KV_LEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
            m = pl.row_max(s, tmp)
            e = pl.row_expand_expdif(s, m)
            p = pl.row_expand_div(e, pl.row_sum(e, tmp))
            probs = pl.store(p, [r0, 0], probs)
    return probs
