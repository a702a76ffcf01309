"""Incore stages of the port decoder_attention_block (Llama attention sub-layer, prefill, 64 tokens).

  make_causal_bias  AIV    0 / FP32-min additive mask [64, 64] (fillpad past column i of row i);
                           depends on no input, runs beside norm_qkv_rope              1 task
  norm_qkv_rope     mixed  per 16 tokens: RMSNorm on the AIVs, the rows go to the cube as the
                           left operand of every projection (one BF16 copy per matmul: ptoas on
                           a2a3 has no Mat -> Mat move for a second use), q / k as 32-column
                           halves so RoPE's rotate_half needs no tile slicing            4 blocks
  attention_head    mixed  per (query head, 16 query rows): S = q k^T, mask, softmax, P v  16 blocks
  o_proj_residual   mixed  per 32 output columns: attn @ wo^T + x                         8 blocks
Rounding: BF16 where the HF layer hands a BF16 tensor on (norm, projections, RoPE result,
scores, probabilities, attention output, o_proj, residual); RoPE's products stay FP32.
"""
import pypto.language as pl

SEQ = 64
HIDDEN = 256
NUM_HEADS = 4
NUM_KV_HEADS = 2
HEAD_DIM = 64
HALF = HEAD_DIM // 2
Q_DIM = NUM_HEADS * HEAD_DIM
KV_DIM = NUM_KV_HEADS * HEAD_DIM
EPS = 1e-6
ATTN_SCALE = 0.125
NEG = -1.0e30
O_N_TILE = 32
QKV_ROWS = 16
ATT_ROWS = 16



@pl.jit.inline
def norm_qkv_rope(
    x: pl.Tensor[[64, 256], pl.BF16],
    norm_w: pl.Tensor[[1, 256], pl.BF16],
    wq: pl.Tensor[[256, 256], pl.BF16],
    wk: pl.Tensor[[128, 256], pl.BF16],
    wv: pl.Tensor[[128, 256], pl.BF16],
    cos: pl.Tensor[[64, 64], pl.BF16],
    sin: pl.Tensor[[64, 64], pl.BF16],
    q_rot: pl.Tensor[[64, 256], pl.BF16],
    k_rot: pl.Tensor[[64, 128], pl.BF16],
    v_out: pl.Tensor[[64, 128], pl.BF16],
):
    # Every step is row-local (a token's norm, projections and rotation need only its own row):
    # one block per QKV_ROWS tokens, the normalised rows go to the cube as the left operand of
    # every projection, without a trip through GM.
    for rb in pl.spmd(SEQ // QKV_ROWS, name_hint="norm_qkv_rope", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        r0 = rb * QKV_ROWS
        xf = pl.cast(x[r0 : r0 + QKV_ROWS, 0:HIDDEN], target_type=pl.FP32)
        wf = pl.cast(norm_w[0:1, 0:HIDDEN], target_type=pl.FP32)
        ssq = pl.row_sum(pl.mul(xf, xf))
        inv = pl.rsqrt(pl.add(pl.mul(ssq, 1.0 / HIDDEN), EPS))
        normed = pl.col_expand_mul(pl.cast(pl.cast(pl.row_expand_mul(xf, inv), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), wf)
        # one BF16 copy of the normalised rows per matmul: a vector-made tile feeds one cube
        # operand only (a second use needs a Mat -> Mat move that a2a3's ptoas does not have)
        cos_lo = pl.cast(cos[r0 : r0 + QKV_ROWS, 0:HALF], target_type=pl.FP32)
        cos_hi = pl.cast(cos[r0 : r0 + QKV_ROWS, HALF:HEAD_DIM], target_type=pl.FP32)
        sin_lo = pl.cast(sin[r0 : r0 + QKV_ROWS, 0:HALF], target_type=pl.FP32)
        sin_hi = pl.cast(sin[r0 : r0 + QKV_ROWS, HALF:HEAD_DIM], target_type=pl.FP32)
        for j in pl.range(NUM_KV_HEADS):
            c = j * HEAD_DIM
            xa = pl.cast(normed, target_type=pl.BF16, mode="rint")
            xb = pl.cast(normed, target_type=pl.BF16, mode="rint")
            t_lo = pl.cast(pl.cast(pl.matmul(xa, wk[c : c + HALF, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
            t_hi = pl.cast(pl.cast(pl.matmul(xb, wk[c + HALF : c + HEAD_DIM, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
            r_lo = pl.sub(pl.mul(t_lo, cos_lo), pl.mul(t_hi, sin_lo))
            r_hi = pl.add(pl.mul(t_hi, cos_hi), pl.mul(t_lo, sin_hi))
            k_rot = pl.assemble(k_rot, pl.cast(r_lo, target_type=pl.BF16, mode="rint"), [r0, c])
            k_rot = pl.assemble(k_rot, pl.cast(r_hi, target_type=pl.BF16, mode="rint"), [r0, c + HALF])
            xc = pl.cast(normed, target_type=pl.BF16, mode="rint")
            vv = pl.matmul(xc, wv[c : c + HEAD_DIM, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32)
            v_out = pl.assemble(v_out, pl.cast(vv, target_type=pl.BF16, mode="rint"), [r0, c])
        for j in pl.range(NUM_HEADS):
            c = j * HEAD_DIM
            xa = pl.cast(normed, target_type=pl.BF16, mode="rint")
            xb = pl.cast(normed, target_type=pl.BF16, mode="rint")
            t_lo = pl.cast(pl.cast(pl.matmul(xa, wq[c : c + HALF, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
            t_hi = pl.cast(pl.cast(pl.matmul(xb, wq[c + HALF : c + HEAD_DIM, 0:HIDDEN], b_trans=True, out_dtype=pl.FP32), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
            r_lo = pl.sub(pl.mul(t_lo, cos_lo), pl.mul(t_hi, sin_lo))
            r_hi = pl.add(pl.mul(t_hi, cos_hi), pl.mul(t_lo, sin_hi))
            q_rot = pl.assemble(q_rot, pl.cast(r_lo, target_type=pl.BF16, mode="rint"), [r0, c])
            q_rot = pl.assemble(q_rot, pl.cast(r_hi, target_type=pl.BF16, mode="rint"), [r0, c + HALF])
    return q_rot, k_rot, v_out


@pl.jit.inline
def make_causal_bias(bias: pl.Tensor[[64, 64], pl.FP32]):
    # row i: 0 for key columns 0 .. i, the FP32 minimum past them (fillpad beyond the valid width)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="make_causal_bias"):
        for i in pl.range(SEQ):
            row = pl.fillpad(pl.set_validshape(pl.full([1, SEQ], dtype=pl.FP32, value=0.0), 1, i + 1), pad_value=pl.PadValue.min)
            bias = pl.assemble(bias, row, [i, 0])
    return bias


@pl.jit.inline
def attention_head(
    q_rot: pl.Tensor[[64, 256], pl.BF16],
    k_rot: pl.Tensor[[64, 128], pl.BF16],
    v_in: pl.Tensor[[64, 128], pl.BF16],
    causal_bias: pl.Tensor[[64, 64], pl.FP32],
    attn: pl.Tensor[[64, 256], pl.BF16],
):
    # block b: query rows r0 .. r0 + ATT_ROWS of head hq against all 64 keys of KV head hq // 2
    for b in pl.spmd(NUM_HEADS * (SEQ // ATT_ROWS), name_hint="attention_head", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        hq = b // (SEQ // ATT_ROWS)
        r0 = (b - hq * (SEQ // ATT_ROWS)) * ATT_ROWS
        qc = hq * HEAD_DIM
        kc = (hq // 2) * HEAD_DIM
        s = pl.matmul(q_rot[r0 : r0 + ATT_ROWS, qc : qc + HEAD_DIM], k_rot[0:SEQ, kc : kc + HEAD_DIM], b_trans=True, out_dtype=pl.FP32)
        s = pl.add(pl.mul(pl.cast(pl.cast(s, target_type=pl.BF16, mode="rint"), target_type=pl.FP32), ATTN_SCALE), causal_bias[r0 : r0 + ATT_ROWS, 0:SEQ])
        m = pl.row_max(s)
        p = pl.exp(pl.row_expand_sub(s, m))
        probs = pl.cast(pl.row_expand_mul(p, pl.recip(pl.row_sum(p))), target_type=pl.BF16, mode="rint")
        o = pl.matmul(probs, v_in[0:SEQ, kc : kc + HEAD_DIM], out_dtype=pl.FP32)
        attn = pl.assemble(attn, pl.cast(o, target_type=pl.BF16, mode="rint"), [r0, qc])
    return attn


@pl.jit.inline
def o_proj_residual(
    attn: pl.Tensor[[64, 256], pl.BF16],
    wo: pl.Tensor[[256, 256], pl.BF16],
    x: pl.Tensor[[64, 256], pl.BF16],
    h: pl.Tensor[[64, 256], pl.BF16],
):
    for nb in pl.spmd(HIDDEN // O_N_TILE, name_hint="o_proj_residual", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        n0 = nb * O_N_TILE
        acc = pl.matmul(attn[0:SEQ, 0:Q_DIM], wo[n0 : n0 + O_N_TILE, 0:Q_DIM], b_trans=True, out_dtype=pl.FP32)
        y = pl.add(pl.cast(pl.cast(acc, target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(x[0:SEQ, n0 : n0 + O_N_TILE], target_type=pl.FP32))
        h = pl.assemble(h, pl.cast(y, target_type=pl.BF16, mode="rint"), [0, n0])
    return h
