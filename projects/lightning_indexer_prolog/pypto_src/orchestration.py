"""Orchestration of the port lightning_indexer_prolog: the @pl.jit entry the golden runs.

Token tiles and index heads are independent (pl.parallel): one task per (64-token tile, head) for
the q path and one per token tile for the k path, each a mixed cube + vector scope of incore.py
(projection -> BF16 -> Hadamard -> INT8 quantisation on chip) that stores its INT8 block and its
scales into the outputs at their offsets. Tasks: TOKENS / 64 * (INDEX_HEADS + 1) = 18.
"""
import pypto.language as pl
from incore import k_tile, q_head_tile

TOKENS = 128
INDEX_HEADS = 8
TOKEN_TILE = 64


@pl.jit
def lightning_indexer_prolog(
    x: pl.Tensor[[128, 1024], pl.BF16],
    qr: pl.Tensor[[128, 512], pl.BF16],
    wq_b: pl.Tensor[[512, 1024], pl.BF16],
    wk: pl.Tensor[[1024, 128], pl.BF16],
    hadamard: pl.Tensor[[128, 128], pl.BF16],
    q_int8: pl.Out[pl.Tensor[[128, 1024], pl.INT8]],
    q_scale: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    k_int8: pl.Out[pl.Tensor[[128, 128], pl.INT8]],
    k_scale: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
):
    for tb in pl.parallel(TOKENS // TOKEN_TILE):
        for hd in pl.parallel(INDEX_HEADS):
            q_int8, q_scale = q_head_tile(qr, wq_b, hadamard, q_int8, q_scale, tb, hd)
        k_int8, k_scale = k_tile(x, wk, hadamard, k_int8, k_scale, tb)
    return q_int8, q_scale, k_int8, k_scale
