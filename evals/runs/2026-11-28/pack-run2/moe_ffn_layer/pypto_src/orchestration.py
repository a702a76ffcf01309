"""Orchestration of the port moe_ffn_layer: three pl.spmd launches (28 blocks) through GM
intermediates wb [64, 64] FP32 (routing weights, broadcast per expert) and h, hl [64, 1024] BF16
(weighted SwiGLU activations, hi and lo parts): router_top2 -> expert_swiglu -> down_combine."""
import pypto.language as pl
from incore import down_combine, expert_swiglu, router_top2


@pl.jit
def moe_ffn_layer(
    x: pl.Tensor[[64, 128], pl.BF16],
    gate_weight: pl.Tensor[[8, 128], pl.BF16],
    gate_proj: pl.Tensor[[1024, 128], pl.BF16],
    up_proj: pl.Tensor[[1024, 128], pl.BF16],
    down_proj: pl.Tensor[[1024, 128], pl.BF16],
    out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    h = pl.create_tensor([64, 1024], dtype=pl.BF16)
    wb = pl.create_tensor([64, 64], dtype=pl.FP32)
    wb = router_top2(x, gate_weight, wb)
    hl = pl.create_tensor([64, 1024], dtype=pl.BF16)
    h, hl = expert_swiglu(x, gate_proj, up_proj, wb, h, hl)
    out = down_combine(h, hl, down_proj, out)
    return out
