"""Incore stages of the port moe_ffn_layer: dense over the 8 experts, exact top-2 routing weights.

Every token goes through all 8 experts' gate/up projections, and each expert's SwiGLU output is
multiplied by the token's routing weight for that expert, which is exactly 0 off its top 2; the
down projection then contracts over all 8 experts at once, so the weighted combine is the matmul's
own FP32 accumulation. At 64 tokens x 8 experts x 128 this costs 4x the routed FLOPs but needs no
gather, scatter or data-dependent control: every task has static shapes.

router         per 16 tokens (4 mixed tasks, split UP_DOWN): logits = x @ gate_weight^T on the cube
               (gate_weight loaded as a [16, 128] Mat tile with 8 valid rows: N = 8 as a full tile
               fails pto-isa's fractal assertion), then on the vector, per row, compare-free:
                 d1  = l - m1                  (0 at the top 1, <= -gap elsewhere)
                 m21 = rowmax(d1 - max(d1 * 1e30 + 1e15, 0)) = m2 - m1   (top 1 pushed to -1e15)
                 z   = min((d1 - m21) * 1e15, 0)       (0 on the top 2, < -1e5 elsewhere)
                 w   = exp(d1 + z) / (1 + exp(m21))    = p_e / (p_1 + p_2) on the top 2, else 0
               into wts [64, 16] (columns 0..7 written; 16 wide so the tile's store stays inside)
expert_swiglu  per (expert e, 64 intermediate columns) (16 mixed tasks, split UP_DOWN):
               cube   gate, up = x @ gate_proj/up_proj[128e + n0 : +64]^T, FP32 (K = 128)
               vector h[:, 128e + n0 : +64] = bf16(silu(gate) * up * wts[:, e])
down_combine   per [32 tokens, 32 outputs] (8 cube tasks): out = sum_e h[:, 128e:+128] @
               down_proj[128e:+128]^T, FP32 accumulation over the 8 experts
"""
import pypto.language as pl

TOKENS = 64
HIDDEN = 128
NUM_EXPERTS = 8
INTER = 128
D_TILE = 32
M_TILE = 32
N_TILE = 64
R_TILE = 16
CUBE_MIN = 16    # the cube's minimum N: gate_weight's 8 rows are loaded into a 16-row Mat tile
BIG = 1.0e15     # gap * BIG >> 1 for any gap between distinct logits (no near-ties)
BIG_SQ = 1.0e30  # BIG * BIG


@pl.jit.inline
def router(
    x: pl.Tensor[[64, 128], pl.BF16],
    gate_weight: pl.Tensor[[8, 128], pl.BF16],
    wts: pl.Tensor[[64, 16], pl.FP32],
):
    for rb in pl.spmd(TOKENS // R_TILE, name_hint="router", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        xt = pl.load(x, [rb * R_TILE, 0], [R_TILE, HIDDEN], target_memory=pl.MemorySpace.Mat)
        # valid 8 of 16 rows: the logits tile is [R_TILE, 16] with 8 valid columns, and every
        # vector op and the store below work on the valid columns only (v_col = 8 in the .pto)
        gwt = pl.load(gate_weight, [0, 0], [CUBE_MIN, HIDDEN], valid_shape=[NUM_EXPERTS, HIDDEN],
                      target_memory=pl.MemorySpace.Mat, clamp=True)
        lg = pl.matmul(xt, pl.tile.transpose_view(gwt), out_dtype=pl.FP32)
        tmp = pl.create_tile([R_TILE, CUBE_MIN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        d1 = pl.row_expand_sub(lg, pl.row_max(lg, tmp))          # l - m1: 0 at the top 1, <= -gap elsewhere
        # the top 1 pushed to -1e15, every other logit kept: its row max is m2 - m1
        m21 = pl.row_max(pl.sub(d1, pl.maximum(pl.add(pl.mul(d1, BIG_SQ), BIG), 0.0)), tmp)
        # 0 on the top 2 (l >= m2), below -1e5 elsewhere, so exp() of it is 0 off the top 2
        z = pl.minimum(pl.mul(pl.row_expand_sub(d1, m21), BIG), 0.0)
        w = pl.row_expand_div(pl.exp(pl.add(d1, z)), pl.add(pl.exp(m21), 1.0))
        wts = pl.store(w, [rb * R_TILE, 0], wts)
    return wts


@pl.jit.inline
def expert_swiglu(
    x: pl.Tensor[[64, 128], pl.BF16],
    wts: pl.Tensor[[64, 16], pl.FP32],
    gate_proj: pl.Tensor[[1024, 128], pl.BF16],
    up_proj: pl.Tensor[[1024, 128], pl.BF16],
    h: pl.Tensor[[64, 1024], pl.BF16],
):
    for blk in pl.spmd(NUM_EXPERTS * (INTER // N_TILE), name_hint="expert_swiglu", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        e = blk // (INTER // N_TILE)
        r0 = blk * N_TILE                                   # = e * INTER + n0
        g = pl.matmul(x[0:TOKENS, 0:HIDDEN], gate_proj[r0 : r0 + N_TILE, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        u = pl.matmul(x[0:TOKENS, 0:HIDDEN], up_proj[r0 : r0 + N_TILE, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        we = wts[0:TOKENS, e : e + 1]
        act = pl.row_expand_mul(pl.mul(pl.div(g, pl.add(pl.exp(pl.neg(g)), 1.0)), u), we)
        h = pl.assemble(h, pl.cast(act, target_type=pl.BF16, mode="rint"), [0, r0])
    return h


@pl.jit.inline
def down_combine(
    h: pl.Tensor[[64, 1024], pl.BF16],
    down_proj: pl.Tensor[[1024, 128], pl.BF16],
    out: pl.Tensor[[64, 128], pl.FP32],
):
    for blk in pl.spmd((TOKENS // M_TILE) * (HIDDEN // D_TILE), name_hint="down_combine"):
        t0 = (blk // (HIDDEN // D_TILE)) * M_TILE
        d0 = (blk % (HIDDEN // D_TILE)) * D_TILE
        acc = pl.matmul(h[t0 : t0 + M_TILE, 0:INTER], down_proj[d0 : d0 + D_TILE, 0:INTER], b_trans=True, out_dtype=pl.FP32)
        for e in pl.range(1, NUM_EXPERTS):
            c0 = e * INTER
            acc = pl.matmul_acc(acc, h[t0 : t0 + M_TILE, c0 : c0 + INTER], down_proj[c0 + d0 : c0 + d0 + D_TILE, 0:INTER], b_trans=True)
        out = pl.assemble(out, acc, [t0, d0])
    return out
