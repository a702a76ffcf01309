"""Orchestration of the port paged_attention_decode: the @pl.jit entry the golden runs.

Sequences are independent (pl.parallel): one task per sequence, 4 in all, each the fused
cube + vector decode_sequence of incore.py with its KV-block loop inside. The orchestration reads
context_lens[b] (a host-written input: the read waits for no task) and passes the context length
and the block count ceil(ctx_len / 64) to the task; the block table is read inside the task, per
block. The task-level form this replaces dispatched 4 * n_blocks tasks per sequence, 64 in all
(PORTING.md).
"""
import pypto.language as pl
from incore import BATCH, BLOCK_SIZE, decode_sequence


@pl.jit
def paged_attention_decode(
    query: pl.Tensor[[256, 128], pl.BF16],
    key_cache: pl.Tensor[[2048, 128], pl.BF16],
    value_cache: pl.Tensor[[2048, 128], pl.BF16],
    block_table: pl.Tensor[[32], pl.INT32],
    context_lens: pl.Tensor[[4], pl.INT32],
    out: pl.Out[pl.Tensor[[256, 128], pl.BF16]],
):
    for b in pl.parallel(BATCH):
        ctx_len = pl.cast(pl.tensor.read(context_lens, [b]), pl.INDEX)
        n_blocks = (ctx_len + BLOCK_SIZE - 1) // BLOCK_SIZE
        out = decode_sequence(query, key_cache, value_cache, block_table, out, b, ctx_len, n_blocks)
    return out
