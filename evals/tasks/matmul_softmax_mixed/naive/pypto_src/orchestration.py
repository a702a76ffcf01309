"""Orchestration of the naive form of matmul_softmax_mixed: per head and tile of 64 queries one cube
dispatch writes the scores to GM, then one vector dispatch per 16 rows reads them back for the
softmax."""
import pypto.language as pl
from incore import KV_LEN, NUM_HEADS, Q_LEN, Q_TILE, ROW_TILE, qk_k, softmax_k


@pl.jit
def attn_probs(
    query: pl.Tensor[[512, 64], pl.BF16],
    key: pl.Tensor[[1024, 64], pl.BF16],
    probs: pl.Out[pl.Tensor[[512, 256], pl.FP32]],
):
    scores = pl.create_tensor([512, 256], dtype=pl.FP32)
    for h in pl.range(NUM_HEADS):
        k0 = h * KV_LEN
        for qb in pl.range(Q_LEN // Q_TILE):
            q0 = h * Q_LEN + qb * Q_TILE
            scores = qk_k(query, key, scores, q0, k0)
    for rb in pl.range(NUM_HEADS * Q_LEN // ROW_TILE):
        r0 = rb * ROW_TILE
        probs = softmax_k(scores, probs, r0)
    return probs
