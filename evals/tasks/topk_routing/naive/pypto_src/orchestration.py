"""Orchestration of the naive form of topk_routing: the gate matmul per block of 16 tokens, then per
block the five softmax kernels, the eight top-k steps (the remaining probabilities ping-pong between
two GM tensors) and the two renormalisation kernels, every intermediate through GM."""
import pypto.language as pl
from incore import (
    ROW_TILE,
    TOP_K,
    div_k,
    exp_k,
    gate_k,
    renorm_k,
    row_max_k,
    row_sum_k,
    select_k,
    sub_k,
    wsum_k,
)


@pl.jit
def topk_routing(
    x: pl.Tensor[[128, 512], pl.BF16],
    gate_weight: pl.Tensor[[64, 512], pl.BF16],
    topk_weights: pl.Out[pl.Tensor[[128, 8], pl.FP32]],
    topk_ids: pl.Out[pl.Tensor[[128, 8], pl.INT32]],
):
    logits = pl.create_tensor([128, 64], dtype=pl.FP32)
    m = pl.create_tensor([128, 1], dtype=pl.FP32)
    shifted = pl.create_tensor([128, 64], dtype=pl.FP32)
    e = pl.create_tensor([128, 64], dtype=pl.FP32)
    s = pl.create_tensor([128, 1], dtype=pl.FP32)
    probs = pl.create_tensor([128, 64], dtype=pl.FP32)
    rest = pl.create_tensor([128, 64], dtype=pl.FP32)
    raw_weights = pl.create_tensor([128, 8], dtype=pl.FP32)
    wsum = pl.create_tensor([128, 1], dtype=pl.FP32)
    for rb in pl.range(128 // ROW_TILE):
        r0 = rb * ROW_TILE
        logits = gate_k(x, gate_weight, logits, r0)
    for rb in pl.range(128 // ROW_TILE):
        r0 = rb * ROW_TILE
        m = row_max_k(logits, m, r0)
        shifted = sub_k(logits, m, shifted, r0)
        e = exp_k(shifted, e, r0)
        s = row_sum_k(e, s, r0)
        probs = div_k(e, s, probs, r0)
        for jj in pl.range(TOP_K // 2):
            j0 = 2 * jj
            j1 = j0 + 1
            raw_weights, topk_ids, rest = select_k(probs, raw_weights, topk_ids, rest, r0, j0)
            raw_weights, topk_ids, probs = select_k(rest, raw_weights, topk_ids, probs, r0, j1)
        wsum = wsum_k(raw_weights, wsum, r0)
        topk_weights = renorm_k(raw_weights, wsum, topk_weights, r0)
    return topk_weights, topk_ids
