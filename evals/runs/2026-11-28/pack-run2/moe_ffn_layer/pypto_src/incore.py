"""Incore stages of the port moe_ffn_layer (dense-masked MoE: every expert runs on all 64 tokens,
scaled by its renormalised top-2 routing weight, which is exactly 0 for an unselected expert).

router_top2    vector, pl.spmd(8) over blocks of 8 tokens: logits l_k = rowsum(x * gate_weight[k])
               in FP32 ([8, 1] per expert), m1 / m2 the largest and second largest (max / min
               chain), w_k = exp(l_k - m1) / (1 + exp(m2 - m1)) for l_k >= m2, else exactly 0 (the
               softmax denominator cancels in the top-2 renormalisation; the exponent of a
               non-selected expert gets (l_k - m2) * 1e30 added). Stored broadcast: wb[t, 8k..8k+7]
               = w_k[t] (a column of a [64, 8] tile cannot be taken on this toolchain).
expert_swiglu  mixed cube + vector, pl.spmd(16): expert e = b // 2, 64 of its 128 intermediate
               columns; cube g, u = x @ W^T [64, 64] FP32; vector (split UP_DOWN over both AIVs):
               w_e = row_max(wb[:, 8e:8e+8]), act = silu(g) * u * w_e, stored as two BF16 parts
               hi = bf16(act), lo = bf16(act - hi) into h, hl [64, 1024].
down_combine   cube, pl.spmd(4) over 32 output columns: out = sum_e (h_e + hl_e) @ down_e^T, the
               expert sum is the K loop of one FP32 accumulator (16 matmuls, K = 128 each).
"""
import pypto.language as pl

TOKENS = 64
HIDDEN = 128
E = 8
INTER = 128
D_TILE = 32
R_ROWS = 8
N_SPLIT = 2
N_COLS = INTER // N_SPLIT


@pl.jit.inline
def router_top2(
    x: pl.Tensor[[64, 128], pl.BF16],
    gate_weight: pl.Tensor[[8, 128], pl.BF16],
    wb: pl.Tensor[[64, 64], pl.FP32],
):
    for rb in pl.spmd(TOKENS // R_ROWS, name_hint="router_top2"):
        t0 = rb * R_ROWS
        xf = pl.cast(x[t0 : t0 + R_ROWS, 0:HIDDEN], target_type=pl.FP32)
        l0 = pl.row_sum(pl.col_expand_mul(xf, pl.cast(gate_weight[0:1, 0:HIDDEN], target_type=pl.FP32)))
        l1 = pl.row_sum(pl.col_expand_mul(xf, pl.cast(gate_weight[1:2, 0:HIDDEN], target_type=pl.FP32)))
        l2 = pl.row_sum(pl.col_expand_mul(xf, pl.cast(gate_weight[2:3, 0:HIDDEN], target_type=pl.FP32)))
        l3 = pl.row_sum(pl.col_expand_mul(xf, pl.cast(gate_weight[3:4, 0:HIDDEN], target_type=pl.FP32)))
        l4 = pl.row_sum(pl.col_expand_mul(xf, pl.cast(gate_weight[4:5, 0:HIDDEN], target_type=pl.FP32)))
        l5 = pl.row_sum(pl.col_expand_mul(xf, pl.cast(gate_weight[5:6, 0:HIDDEN], target_type=pl.FP32)))
        l6 = pl.row_sum(pl.col_expand_mul(xf, pl.cast(gate_weight[6:7, 0:HIDDEN], target_type=pl.FP32)))
        l7 = pl.row_sum(pl.col_expand_mul(xf, pl.cast(gate_weight[7:8, 0:HIDDEN], target_type=pl.FP32)))
        m1 = pl.maximum(l0, l1)
        m2 = pl.minimum(l0, l1)
        m2 = pl.maximum(m2, pl.minimum(m1, l2))
        m1 = pl.maximum(m1, l2)
        m2 = pl.maximum(m2, pl.minimum(m1, l3))
        m1 = pl.maximum(m1, l3)
        m2 = pl.maximum(m2, pl.minimum(m1, l4))
        m1 = pl.maximum(m1, l4)
        m2 = pl.maximum(m2, pl.minimum(m1, l5))
        m1 = pl.maximum(m1, l5)
        m2 = pl.maximum(m2, pl.minimum(m1, l6))
        m1 = pl.maximum(m1, l6)
        m2 = pl.maximum(m2, pl.minimum(m1, l7))
        m1 = pl.maximum(m1, l7)
        # w_k = exp(l_k - m1) / (1 + exp(m2 - m1)) for the top 2 (l_k >= m2); below m2 the exponent
        # gets (l_k - m2) * 1e30 added and the weight is exactly 0 (no near-ties among the top 3)
        inv = pl.recip(pl.add(pl.exp(pl.sub(m2, m1)), 1.0))
        zero = pl.full([R_ROWS, 8], dtype=pl.FP32, value=0.0)
        w0 = pl.mul(pl.exp(pl.add(pl.sub(l0, m1), pl.minimum(pl.mul(pl.sub(l0, m2), 1.0e30), 0.0))), inv)
        wb = pl.assemble(wb, pl.row_expand_add(zero, w0), [t0, 0])
        w1 = pl.mul(pl.exp(pl.add(pl.sub(l1, m1), pl.minimum(pl.mul(pl.sub(l1, m2), 1.0e30), 0.0))), inv)
        wb = pl.assemble(wb, pl.row_expand_add(zero, w1), [t0, 8])
        w2 = pl.mul(pl.exp(pl.add(pl.sub(l2, m1), pl.minimum(pl.mul(pl.sub(l2, m2), 1.0e30), 0.0))), inv)
        wb = pl.assemble(wb, pl.row_expand_add(zero, w2), [t0, 16])
        w3 = pl.mul(pl.exp(pl.add(pl.sub(l3, m1), pl.minimum(pl.mul(pl.sub(l3, m2), 1.0e30), 0.0))), inv)
        wb = pl.assemble(wb, pl.row_expand_add(zero, w3), [t0, 24])
        w4 = pl.mul(pl.exp(pl.add(pl.sub(l4, m1), pl.minimum(pl.mul(pl.sub(l4, m2), 1.0e30), 0.0))), inv)
        wb = pl.assemble(wb, pl.row_expand_add(zero, w4), [t0, 32])
        w5 = pl.mul(pl.exp(pl.add(pl.sub(l5, m1), pl.minimum(pl.mul(pl.sub(l5, m2), 1.0e30), 0.0))), inv)
        wb = pl.assemble(wb, pl.row_expand_add(zero, w5), [t0, 40])
        w6 = pl.mul(pl.exp(pl.add(pl.sub(l6, m1), pl.minimum(pl.mul(pl.sub(l6, m2), 1.0e30), 0.0))), inv)
        wb = pl.assemble(wb, pl.row_expand_add(zero, w6), [t0, 48])
        w7 = pl.mul(pl.exp(pl.add(pl.sub(l7, m1), pl.minimum(pl.mul(pl.sub(l7, m2), 1.0e30), 0.0))), inv)
        wb = pl.assemble(wb, pl.row_expand_add(zero, w7), [t0, 56])
    return wb


@pl.jit.inline
def expert_swiglu(
    x: pl.Tensor[[64, 128], pl.BF16],
    gate_proj: pl.Tensor[[1024, 128], pl.BF16],
    up_proj: pl.Tensor[[1024, 128], pl.BF16],
    wb: pl.Tensor[[64, 64], pl.FP32],
    h: pl.Tensor[[64, 1024], pl.BF16],
    hl: pl.Tensor[[64, 1024], pl.BF16],
):
    for b in pl.spmd(E * N_SPLIT, name_hint="expert_swiglu", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        e = b // N_SPLIT
        c0 = e * INTER + (b % N_SPLIT) * N_COLS
        g = pl.matmul(x[0:TOKENS, 0:HIDDEN], gate_proj[c0 : c0 + N_COLS, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        u = pl.matmul(x[0:TOKENS, 0:HIDDEN], up_proj[c0 : c0 + N_COLS, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        w = pl.row_max(wb[0:TOKENS, e * 8 : e * 8 + 8])
        sig = pl.recip(pl.add(pl.exp(pl.neg(g)), 1.0))
        act = pl.row_expand_mul(pl.mul(pl.mul(g, sig), u), w)
        hi = pl.cast(act, target_type=pl.BF16, mode="rint")
        lo = pl.cast(pl.sub(act, pl.cast(hi, target_type=pl.FP32)), target_type=pl.BF16, mode="rint")
        h = pl.assemble(h, hi, [0, c0])
        hl = pl.assemble(hl, lo, [0, c0])
    return h, hl


@pl.jit.inline
def down_combine(
    h: pl.Tensor[[64, 1024], pl.BF16],
    hl: pl.Tensor[[64, 1024], pl.BF16],
    down_proj: pl.Tensor[[1024, 128], pl.BF16],
    out: pl.Tensor[[64, 128], pl.FP32],
):
    for nb in pl.spmd(HIDDEN // D_TILE, name_hint="down_combine"):
        n0 = nb * D_TILE
        acc = pl.matmul(h[0:TOKENS, 0:INTER], down_proj[n0 : n0 + D_TILE, 0:INTER], b_trans=True, out_dtype=pl.FP32)
        acc = pl.matmul_acc(acc, hl[0:TOKENS, 0:INTER], down_proj[n0 : n0 + D_TILE, 0:INTER], b_trans=True)
        for e in pl.pipeline(1, E, stage=2):
            r0 = e * INTER
            acc = pl.matmul_acc(acc, h[0:TOKENS, r0 : r0 + INTER], down_proj[r0 + n0 : r0 + n0 + D_TILE, 0:INTER], b_trans=True)
            acc = pl.matmul_acc(acc, hl[0:TOKENS, r0 : r0 + INTER], down_proj[r0 + n0 : r0 + n0 + D_TILE, 0:INTER], b_trans=True)
        out[0:TOKENS, n0 : n0 + D_TILE] = acc
    return out
