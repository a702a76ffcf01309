"""Orchestration of the port flash_attention_prefill: the @pl.jit entry the golden runs.

Heads and query tiles are independent (pl.parallel): one task per (head, 64-row query tile),
16 in all, each the fused cube + vector attention_tile of incore.py with its key-block loop
inside. The task-level form this replaces dispatched 288 tasks (PORTING.md).
"""
import pypto.language as pl
from incore import NUM_HEADS, Q_TILE, SEQ, attention_tile


@pl.jit
def flash_attention_prefill(
    q: pl.Tensor[[1024, 128], pl.BF16],
    k: pl.Tensor[[1024, 128], pl.BF16],
    v: pl.Tensor[[1024, 128], pl.BF16],
    causal_bias: pl.Tensor[[128, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[1024, 128], pl.BF16]],
):
    for h in pl.parallel(NUM_HEADS):
        for qb in pl.parallel(SEQ // Q_TILE):
            out = attention_tile(q, k, v, causal_bias, out, h, qb)
    return out
