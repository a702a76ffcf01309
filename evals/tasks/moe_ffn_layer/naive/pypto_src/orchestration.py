"""Orchestration of the naive form of moe_ffn_layer: the router matmul, the five softmax kernels, the
two top-k steps (the remaining probabilities in a second GM tensor), the renormalisation and the
dense routing weights; then per expert its gate and up matmuls, SiLU, product, BF16 cast, down
matmul and routing-weight scaling; then the sum over the experts. Every intermediate through GM."""
import pypto.language as pl
from incore import (
    NUM_EXPERTS,
    cast_k,
    dense_k,
    div_k,
    down_k,
    exp_k,
    expert_mm_k,
    mul_k,
    renorm_k,
    router_k,
    row_max_k,
    row_sum_k,
    scale_k,
    select_k,
    silu_k,
    sub_k,
    sum_k,
    wsum_k,
)


@pl.jit
def moe_ffn_layer(
    x: pl.Tensor[[64, 128], pl.BF16],
    gate_weight: pl.Tensor[[8, 128], pl.BF16],
    gate_proj: pl.Tensor[[1024, 128], pl.BF16],
    up_proj: pl.Tensor[[1024, 128], pl.BF16],
    down_proj: pl.Tensor[[1024, 128], pl.BF16],
    out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    logits = pl.create_tensor([64, 8], dtype=pl.FP32)
    m = pl.create_tensor([64, 1], dtype=pl.FP32)
    shifted = pl.create_tensor([64, 8], dtype=pl.FP32)
    e = pl.create_tensor([64, 8], dtype=pl.FP32)
    s = pl.create_tensor([64, 1], dtype=pl.FP32)
    probs = pl.create_tensor([64, 8], dtype=pl.FP32)
    rest = pl.create_tensor([64, 8], dtype=pl.FP32)
    rest2 = pl.create_tensor([64, 8], dtype=pl.FP32)
    sel = pl.create_tensor([128, 8], dtype=pl.FP32)
    raw_weights = pl.create_tensor([64, 2], dtype=pl.FP32)
    wsum = pl.create_tensor([64, 1], dtype=pl.FP32)
    weights = pl.create_tensor([64, 2], dtype=pl.FP32)
    dense = pl.create_tensor([64, 8], dtype=pl.FP32)
    g = pl.create_tensor([512, 128], dtype=pl.FP32)
    u = pl.create_tensor([512, 128], dtype=pl.FP32)
    sg = pl.create_tensor([512, 128], dtype=pl.FP32)
    h = pl.create_tensor([512, 128], dtype=pl.FP32)
    hb = pl.create_tensor([512, 128], dtype=pl.BF16)
    y = pl.create_tensor([512, 128], dtype=pl.FP32)
    yw = pl.create_tensor([512, 128], dtype=pl.FP32)
    logits = router_k(x, gate_weight, logits)
    m = row_max_k(logits, m)
    shifted = sub_k(logits, m, shifted)
    e = exp_k(shifted, e)
    s = row_sum_k(e, s)
    probs = div_k(e, s, probs)
    raw_weights, sel, rest = select_k(probs, raw_weights, sel, rest, 0)
    raw_weights, sel, rest2 = select_k(rest, raw_weights, sel, rest2, 1)
    wsum = wsum_k(raw_weights, wsum)
    weights = renorm_k(raw_weights, wsum, weights)
    dense = dense_k(sel, weights, dense)
    for ex in pl.range(NUM_EXPERTS):
        g = expert_mm_k(x, gate_proj, g, ex)
        u = expert_mm_k(x, up_proj, u, ex)
        sg = silu_k(g, sg, ex)
        h = mul_k(sg, u, h, ex)
        hb = cast_k(h, hb, ex)
        y = down_k(hb, down_proj, y, ex)
        yw = scale_k(y, dense, yw, ex)
    out = sum_k(yw, out)
    return out
