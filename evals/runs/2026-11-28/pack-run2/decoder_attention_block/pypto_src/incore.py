"""Incore stages of the port decoder_attention_block (prefill, 64 tokens, hidden 256, GQA 4/2).

  causal_mask  AIV    the additive causal mask [64, 64] FP32 (0 / -1e30), made on chip      1 task
  input_norm   AIV    xn = RMSNorm(x) (BF16), 16 rows a block                                4 blocks
  kv_proj_rope mixed  per KV head: k = xn wk_h^T as two 32-column halves, RoPE; v = xn wv_h^T 2 blocks
  head_attn    mixed  per query head: q = xn wq_h^T (halves), RoPE, S = q k^T over the two
                      halves (k from GM, transposed on the cube), softmax in FP32, P v         4 blocks
  o_proj_res   mixed  per 64 output columns: attn @ wo^T + x                                  4 blocks

Rounding follows the Hugging Face module: a BF16 round (cast to BF16 and back) wherever it
hands a BF16 tensor on.
"""
import pypto.language as pl

SEQ = 64
HIDDEN = 256
NUM_HEADS = 4
NUM_KV_HEADS = 2
HEAD_DIM = 64
HALF = HEAD_DIM // 2
KV_DIM = NUM_KV_HEADS * HEAD_DIM
EPS = 1e-6
ATTN_SCALE = 0.125
MASKED = 1.0e30
NORM_ROWS = 16
O_N_TILE = 64


@pl.jit.incore
def causal_mask(bias: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    # 1 where key j <= query i, so (keep - 1) * 1e30 is 0 there and -1e30 above the diagonal.
    keep = pl.tile.tri(0, [SEQ, SEQ], dtype=pl.FP32)
    pl.store(pl.mul(pl.add(keep, -1.0), MASKED), [0, 0], bias)
    return bias


@pl.jit.inline
def input_norm(
    x: pl.Tensor[[64, 256], pl.BF16],
    w: pl.Tensor[[1, 256], pl.BF16],
    xn: pl.Tensor[[64, 256], pl.BF16],
):
    for rb in pl.spmd(SEQ // NORM_ROWS, name_hint="input_norm"):
        wf = pl.cast(w[0:1, 0:HIDDEN], target_type=pl.FP32)
        r0 = rb * NORM_ROWS
        xf = pl.cast(x[r0 : r0 + NORM_ROWS, 0:HIDDEN], target_type=pl.FP32)
        ssq = pl.row_sum(pl.mul(xf, xf))
        inv = pl.rsqrt(pl.add(pl.mul(ssq, 1.0 / HIDDEN), EPS))
        normed = pl.col_expand_mul(pl.cast(pl.cast(pl.row_expand_mul(xf, inv), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), wf)
        xn = pl.assemble(xn, pl.cast(normed, target_type=pl.BF16, mode="rint"), [r0, 0])
    return xn


@pl.jit.inline
def kv_proj_rope(
    xn: pl.Tensor[[64, 256], pl.BF16],
    wk: pl.Tensor[[128, 256], pl.BF16],
    wv: pl.Tensor[[128, 256], pl.BF16],
    cos: pl.Tensor[[64, 64], pl.BF16],
    sin: pl.Tensor[[64, 64], pl.BF16],
    k_rot: pl.Tensor[[64, 128], pl.BF16],
    v_st: pl.Tensor[[64, 128], pl.BF16],
):
    for hk in pl.spmd(NUM_KV_HEADS, name_hint="kv_proj_rope", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        c0 = hk * HEAD_DIM
        xa = xn[0:SEQ, 0:HIDDEN]
        lo = pl.matmul(xa, wk[c0 : c0 + HALF, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        hi = pl.matmul(xa, wk[c0 + HALF : c0 + HEAD_DIM, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        vv = pl.matmul(xa, wv[c0 : c0 + HEAD_DIM, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        v_st = pl.assemble(v_st, pl.cast(vv, target_type=pl.BF16, mode="rint"), [0, c0])
        lo = pl.cast(pl.cast(lo, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        hi = pl.cast(pl.cast(hi, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        cos_lo = pl.cast(cos[0:SEQ, 0:HALF], target_type=pl.FP32)
        cos_hi = pl.cast(cos[0:SEQ, HALF:HEAD_DIM], target_type=pl.FP32)
        sin_lo = pl.cast(sin[0:SEQ, 0:HALF], target_type=pl.FP32)
        sin_hi = pl.cast(sin[0:SEQ, HALF:HEAD_DIM], target_type=pl.FP32)
        r_lo = pl.sub(pl.cast(pl.cast(pl.mul(lo, cos_lo), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(pl.mul(hi, sin_lo), target_type=pl.BF16, mode="rint"), target_type=pl.FP32))
        r_hi = pl.add(pl.cast(pl.cast(pl.mul(hi, cos_hi), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(pl.mul(lo, sin_hi), target_type=pl.BF16, mode="rint"), target_type=pl.FP32))
        k_rot = pl.assemble(k_rot, pl.cast(r_lo, target_type=pl.BF16, mode="rint"), [0, c0])
        k_rot = pl.assemble(k_rot, pl.cast(r_hi, target_type=pl.BF16, mode="rint"), [0, c0 + HALF])
    return k_rot, v_st


@pl.jit.inline
def head_attn(
    xn: pl.Tensor[[64, 256], pl.BF16],
    wq: pl.Tensor[[256, 256], pl.BF16],
    cos: pl.Tensor[[64, 64], pl.BF16],
    sin: pl.Tensor[[64, 64], pl.BF16],
    k_rot: pl.Tensor[[64, 128], pl.BF16],
    v_st: pl.Tensor[[64, 128], pl.BF16],
    bias: pl.Tensor[[64, 64], pl.FP32],
    attn: pl.Tensor[[64, 256], pl.BF16],
):
    for hq in pl.spmd(NUM_HEADS, name_hint="head_attn", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        qc = hq * HEAD_DIM
        kc = (hq // 2) * HEAD_DIM
        xa = xn[0:SEQ, 0:HIDDEN]
        lo = pl.matmul(xa, wq[qc : qc + HALF, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        hi = pl.matmul(xa, wq[qc + HALF : qc + HEAD_DIM, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        lo = pl.cast(pl.cast(lo, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        hi = pl.cast(pl.cast(hi, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        cos_lo = pl.cast(cos[0:SEQ, 0:HALF], target_type=pl.FP32)
        cos_hi = pl.cast(cos[0:SEQ, HALF:HEAD_DIM], target_type=pl.FP32)
        sin_lo = pl.cast(sin[0:SEQ, 0:HALF], target_type=pl.FP32)
        sin_hi = pl.cast(sin[0:SEQ, HALF:HEAD_DIM], target_type=pl.FP32)
        q_lo = pl.cast(pl.sub(pl.cast(pl.cast(pl.mul(lo, cos_lo), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(pl.mul(hi, sin_lo), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)), target_type=pl.BF16, mode="rint")
        q_hi = pl.cast(pl.add(pl.cast(pl.cast(pl.mul(hi, cos_hi), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(pl.mul(lo, sin_hi), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)), target_type=pl.BF16, mode="rint")
        s = pl.matmul(q_lo, k_rot[0:SEQ, kc : kc + HALF], b_trans=True, out_dtype=pl.FP32)
        s = pl.matmul_acc(s, q_hi, k_rot[0:SEQ, kc + HALF : kc + HEAD_DIM], b_trans=True)
        # BF16 scores times 1/8 (exact in BF16), plus the causal mask.
        s = pl.add(pl.mul(pl.cast(pl.cast(s, target_type=pl.BF16, mode="rint"), target_type=pl.FP32), ATTN_SCALE), bias[0:SEQ, 0:SEQ])
        p = pl.exp(pl.row_expand_sub(s, pl.row_max(s)))
        probs = pl.cast(pl.row_expand_div(p, pl.row_sum(p)), target_type=pl.BF16, mode="rint")
        o = pl.matmul(probs, v_st[0:SEQ, kc : kc + HEAD_DIM], out_dtype=pl.FP32)
        attn = pl.assemble(attn, pl.cast(o, target_type=pl.BF16, mode="rint"), [0, qc])
    return attn


@pl.jit.inline
def o_proj_res(
    attn: pl.Tensor[[64, 256], pl.BF16],
    wo: pl.Tensor[[256, 256], pl.BF16],
    x: pl.Tensor[[64, 256], pl.BF16],
    h: pl.Tensor[[64, 256], pl.BF16],
):
    for nb in pl.spmd(HIDDEN // O_N_TILE, name_hint="o_proj_res", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        n0 = nb * O_N_TILE
        acc = pl.matmul(attn[0:SEQ, 0:HIDDEN], wo[n0 : n0 + O_N_TILE, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
        y = pl.add(pl.cast(pl.cast(acc, target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(x[0:SEQ, n0 : n0 + O_N_TILE], target_type=pl.FP32))
        h = pl.assemble(h, pl.cast(y, target_type=pl.BF16, mode="rint"), [0, n0])
    return h
