"""Orchestration of the port moe_ffn_layer: the @pl.jit entry.

Three dispatches (incore.py explains each kernel):
  router (4 tasks) -> expert_swiglu (16 tasks) -> down_combine (8 tasks)
through the GM intermediates wts [64, 16] FP32 (columns 0..7: the renormalised top-2 weight of
every token and expert, 0 off the top 2) and h [64, 1024] BF16 (the weighted SwiGLU activations of
all 8 experts side by side). Every task writes its own region.
"""
import pypto.language as pl
from incore import down_combine, expert_swiglu, router

TOKENS = 64
NUM_EXPERTS = 8
INTER = 128


@pl.jit
def moe_ffn_layer(
    x: pl.Tensor[[64, 128], pl.BF16],
    gate_weight: pl.Tensor[[8, 128], pl.BF16],
    gate_proj: pl.Tensor[[1024, 128], pl.BF16],
    up_proj: pl.Tensor[[1024, 128], pl.BF16],
    down_proj: pl.Tensor[[1024, 128], pl.BF16],
    out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    h = pl.create_tensor([TOKENS, NUM_EXPERTS * INTER], dtype=pl.BF16)
    wts = pl.create_tensor([TOKENS, 2 * NUM_EXPERTS], dtype=pl.FP32)
    wts = router(x, gate_weight, wts)
    h = expert_swiglu(x, wts, gate_proj, up_proj, h)
    out = down_combine(h, down_proj, out)
    return out
