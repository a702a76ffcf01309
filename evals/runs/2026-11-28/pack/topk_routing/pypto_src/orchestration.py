"""Orchestration of the port topk_routing: the @pl.jit entry the golden runs.

One SPMD dispatch of the mixed cube + vector kernel incore.router (TOKENS / TOKEN_TILE blocks, one
token tile each): the gate projection on the AIC, top-8 selection and the renormalised softmax
weights on the cluster's two AIVs; nothing goes through GM but the inputs and the two outputs.
"""
import pypto.language as pl
from incore import router


@pl.jit
def topk_routing(
    x: pl.Tensor[[128, 512], pl.BF16],
    gate_weight: pl.Tensor[[64, 512], pl.BF16],
    topk_weights: pl.Out[pl.Tensor[[128, 8], pl.FP32]],
    topk_ids: pl.Out[pl.Tensor[[128, 8], pl.INT32]],
):
    topk_weights, topk_ids = router(x, gate_weight, topk_weights, topk_ids)
    return topk_weights, topk_ids
