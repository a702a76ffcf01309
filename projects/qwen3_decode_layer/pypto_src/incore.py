"""Incore stages of the port qwen3_decode_layer: one Qwen3 decoder layer, decode step.

Each stage is a @pl.jit.inline function whose pl.at scope (or pl.spmd body) the compiler outlines
into a kernel; a scope with both matmuls and vector work becomes a mixed kernel (AIC + two AIVs,
pl.split(UP_DOWN): each AIV takes 8 of the 16 rows). Rounding: the port rounds to BF16 exactly
where the Hugging Face layer hands a BF16 tensor on (a cast to BF16 and back), so the
stages match the reference up to the matmuls' FP32 summation order.

Stages in the order the entry dispatches them (every one a single dispatch: a pl.spmd grid):

  input_norm        AIV    x -> xn = RMSNorm(x) (BF16), 8 rows a block                   2 blocks
  kv_proj_norm_rope mixed  per KV head: k = xn @ wk_h^T as two 64-column halves, k_norm
                           over the head (the halves' sums of squares), RoPE on the halves;
                           v = xn @ wv_h^T                                                  8 blocks
  q_proj_norm_rope  mixed  per query head: the same with wq and q_norm                     16 blocks
  kv_cache_write    AIV    per sequence: the new token's K and V rows into its cache slot   16 blocks
  attention_seq     mixed  per sequence: the 16 query heads are the cube's M; per cache block
                           the 8 KV heads' keys are one [128, 128] operand (row slot * 8 +
                           head), a head's scores against the other heads' keys are masked
                           by gqa_bias; two passes over the blocks (the max, then P and P V)  16 blocks
  o_proj_residual   mixed  per 128 output columns: attn @ wo^T + hidden_states              8 blocks
  post_norm         AIV    resid1 -> hn = RMSNorm(resid1)                                   2 blocks
  gate_up_silu      mixed  per 128 columns of the MLP: silu(hn @ wg^T) * (hn @ wu^T)        24 blocks
  down_residual     mixed  per 128 output columns: mlp @ wd^T + resid1                      8 blocks

input_norm and post_norm are the same code written twice: port-check's schedule model takes one
inline function called twice as one stage (PORTING.md section 4).
"""
import pypto.language as pl

BATCH = 16
HIDDEN = 1024
NUM_HEADS = 16
NUM_KV_HEADS = 8
HEAD_DIM = 128
HALF = HEAD_DIM // 2
Q_DIM = NUM_HEADS * HEAD_DIM
KV_DIM = NUM_KV_HEADS * HEAD_DIM
INTER = 3072
BLOCK_SIZE = 16
MAX_BLOCKS = 12
SLOTS = BATCH * MAX_BLOCKS * BLOCK_SIZE
BLOCK_COLS = BLOCK_SIZE * NUM_KV_HEADS  # 128 key columns per cache block (slot * 8 + kv head)
EPS = 1e-6
ATTN_SCALE = 0.08838834764831845
NEG = -1.0e30

K_TILE = 256          # the contraction chunk of every projection
O_N_TILE = 128        # o_proj / down_proj output columns per block
MLP_N_TILE = 128      # gate / up columns per block
NORM_ROWS = 8         # rows per pass of the RMSNorm kernels


@pl.jit.inline
def input_norm(
    x: pl.Tensor[[16, 1024], pl.BF16],
    w: pl.Tensor[[1, 1024], pl.BF16],
    xn: pl.Tensor[[16, 1024], pl.BF16],
):
    for rb in pl.spmd(BATCH // NORM_ROWS, name_hint="input_norm"):
        wf = pl.cast(w[0:1, 0:HIDDEN], target_type=pl.FP32)
        r0 = rb * NORM_ROWS
        xf = pl.cast(x[r0 : r0 + NORM_ROWS, 0:HIDDEN], target_type=pl.FP32)
        ssq = pl.row_sum(pl.mul(xf, xf))
        inv = pl.rsqrt(pl.add(pl.mul(ssq, 1.0 / HIDDEN), EPS))
        normed = pl.col_expand_mul(pl.cast(pl.cast(pl.row_expand_mul(xf, inv), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), wf)
        xn = pl.assemble(xn, pl.cast(normed, target_type=pl.BF16, mode="rint"), [r0, 0])
    return xn


@pl.jit.inline
def kv_proj_norm_rope(
    xn: pl.Tensor[[16, 1024], pl.BF16],
    wk: pl.Tensor[[1024, 1024], pl.BF16],
    wv: pl.Tensor[[1024, 1024], pl.BF16],
    k_norm_w: pl.Tensor[[1, 128], pl.BF16],
    cos: pl.Tensor[[16, 128], pl.BF16],
    sin: pl.Tensor[[16, 128], pl.BF16],
    k_new: pl.Tensor[[16, 1024], pl.BF16],
    v_new: pl.Tensor[[16, 1024], pl.BF16],
):
    for hk in pl.spmd(NUM_KV_HEADS, name_hint="kv_proj_norm_rope", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        c0 = hk * HEAD_DIM
        lo = pl.matmul(xn[0:BATCH, 0:K_TILE], wk[c0 : c0 + HALF, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        hi = pl.matmul(xn[0:BATCH, 0:K_TILE], wk[c0 + HALF : c0 + HEAD_DIM, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        vv = pl.matmul(xn[0:BATCH, 0:K_TILE], wv[c0 : c0 + HEAD_DIM, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        for kb in pl.pipeline(1, HIDDEN // K_TILE, stage=2):
            k0 = kb * K_TILE
            lo = pl.matmul_acc(lo, xn[0:BATCH, k0 : k0 + K_TILE], wk[c0 : c0 + HALF, k0 : k0 + K_TILE], b_trans=True)
            hi = pl.matmul_acc(hi, xn[0:BATCH, k0 : k0 + K_TILE], wk[c0 + HALF : c0 + HEAD_DIM, k0 : k0 + K_TILE], b_trans=True)
            vv = pl.matmul_acc(vv, xn[0:BATCH, k0 : k0 + K_TILE], wv[c0 : c0 + HEAD_DIM, k0 : k0 + K_TILE], b_trans=True)
        v_new = pl.assemble(v_new, pl.cast(vv, target_type=pl.BF16, mode="rint"), [0, c0])
        lo = pl.cast(pl.cast(lo, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        hi = pl.cast(pl.cast(hi, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        ssq = pl.add(pl.row_sum(pl.mul(lo, lo)), pl.row_sum(pl.mul(hi, hi)))
        inv = pl.rsqrt(pl.add(pl.mul(ssq, 1.0 / HEAD_DIM), EPS))
        n_lo = pl.cast(pl.cast(pl.col_expand_mul(pl.cast(pl.cast(pl.row_expand_mul(lo, inv), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(k_norm_w[0:1, 0:HALF], target_type=pl.FP32)), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        n_hi = pl.cast(pl.cast(pl.col_expand_mul(pl.cast(pl.cast(pl.row_expand_mul(hi, inv), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(k_norm_w[0:1, HALF:HEAD_DIM], target_type=pl.FP32)), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        cos_lo = pl.cast(cos[0:BATCH, 0:HALF], target_type=pl.FP32)
        cos_hi = pl.cast(cos[0:BATCH, HALF:HEAD_DIM], target_type=pl.FP32)
        sin_lo = pl.cast(sin[0:BATCH, 0:HALF], target_type=pl.FP32)
        sin_hi = pl.cast(sin[0:BATCH, HALF:HEAD_DIM], target_type=pl.FP32)
        r_lo = pl.sub(pl.cast(pl.cast(pl.mul(n_lo, cos_lo), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(pl.mul(n_hi, sin_lo), target_type=pl.BF16, mode="rint"), target_type=pl.FP32))
        r_hi = pl.add(pl.cast(pl.cast(pl.mul(n_hi, cos_hi), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(pl.mul(n_lo, sin_hi), target_type=pl.BF16, mode="rint"), target_type=pl.FP32))
        k_new = pl.assemble(k_new, pl.cast(r_lo, target_type=pl.BF16, mode="rint"), [0, c0])
        k_new = pl.assemble(k_new, pl.cast(r_hi, target_type=pl.BF16, mode="rint"), [0, c0 + HALF])
    return k_new, v_new


@pl.jit.inline
def q_proj_norm_rope(
    xn: pl.Tensor[[16, 1024], pl.BF16],
    wq: pl.Tensor[[2048, 1024], pl.BF16],
    q_norm_w: pl.Tensor[[1, 128], pl.BF16],
    cos: pl.Tensor[[16, 128], pl.BF16],
    sin: pl.Tensor[[16, 128], pl.BF16],
    q_rot: pl.Tensor[[16, 2048], pl.BF16],
):
    for hq in pl.spmd(NUM_HEADS, name_hint="q_proj_norm_rope", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        c0 = hq * HEAD_DIM
        lo = pl.matmul(xn[0:BATCH, 0:K_TILE], wq[c0 : c0 + HALF, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        hi = pl.matmul(xn[0:BATCH, 0:K_TILE], wq[c0 + HALF : c0 + HEAD_DIM, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        for kb in pl.pipeline(1, HIDDEN // K_TILE, stage=2):
            k0 = kb * K_TILE
            lo = pl.matmul_acc(lo, xn[0:BATCH, k0 : k0 + K_TILE], wq[c0 : c0 + HALF, k0 : k0 + K_TILE], b_trans=True)
            hi = pl.matmul_acc(hi, xn[0:BATCH, k0 : k0 + K_TILE], wq[c0 + HALF : c0 + HEAD_DIM, k0 : k0 + K_TILE], b_trans=True)
        lo = pl.cast(pl.cast(lo, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        hi = pl.cast(pl.cast(hi, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        ssq = pl.add(pl.row_sum(pl.mul(lo, lo)), pl.row_sum(pl.mul(hi, hi)))
        inv = pl.rsqrt(pl.add(pl.mul(ssq, 1.0 / HEAD_DIM), EPS))
        n_lo = pl.cast(pl.cast(pl.col_expand_mul(pl.cast(pl.cast(pl.row_expand_mul(lo, inv), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(q_norm_w[0:1, 0:HALF], target_type=pl.FP32)), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        n_hi = pl.cast(pl.cast(pl.col_expand_mul(pl.cast(pl.cast(pl.row_expand_mul(hi, inv), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(q_norm_w[0:1, HALF:HEAD_DIM], target_type=pl.FP32)), target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        cos_lo = pl.cast(cos[0:BATCH, 0:HALF], target_type=pl.FP32)
        cos_hi = pl.cast(cos[0:BATCH, HALF:HEAD_DIM], target_type=pl.FP32)
        sin_lo = pl.cast(sin[0:BATCH, 0:HALF], target_type=pl.FP32)
        sin_hi = pl.cast(sin[0:BATCH, HALF:HEAD_DIM], target_type=pl.FP32)
        r_lo = pl.sub(pl.cast(pl.cast(pl.mul(n_lo, cos_lo), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(pl.mul(n_hi, sin_lo), target_type=pl.BF16, mode="rint"), target_type=pl.FP32))
        r_hi = pl.add(pl.cast(pl.cast(pl.mul(n_hi, cos_hi), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(pl.mul(n_lo, sin_hi), target_type=pl.BF16, mode="rint"), target_type=pl.FP32))
        q_rot = pl.assemble(q_rot, pl.cast(r_lo, target_type=pl.BF16, mode="rint"), [0, c0])
        q_rot = pl.assemble(q_rot, pl.cast(r_hi, target_type=pl.BF16, mode="rint"), [0, c0 + HALF])
    return q_rot


@pl.jit.inline
def kv_cache_write(
    k_new: pl.Tensor[[16, 1024], pl.BF16],
    v_new: pl.Tensor[[16, 1024], pl.BF16],
    key_cache: pl.Tensor[[3072, 1024], pl.BF16],
    value_cache: pl.Tensor[[3072, 1024], pl.BF16],
    sw0: pl.Scalar[pl.INDEX],
    sw1: pl.Scalar[pl.INDEX],
    sw2: pl.Scalar[pl.INDEX],
    sw3: pl.Scalar[pl.INDEX],
    sw4: pl.Scalar[pl.INDEX],
    sw5: pl.Scalar[pl.INDEX],
    sw6: pl.Scalar[pl.INDEX],
    sw7: pl.Scalar[pl.INDEX],
):
    # Block tok copies token tok's K and V rows into its cache slot. The slots travel packed, two
    # 12-bit fields a word (word tok // 2, field tok % 2): a vector kernel cannot read GM scalars
    # with this ptoas, and a task takes at most 16 scalars. [g == k] is max(1 - (g - k)^2, 0).
    for tok in pl.spmd(BATCH, name_hint="kv_cache_write"):
        g = tok // 2
        f = tok - g * 2
        w = (
            sw0 * pl.max(1 - g * g, 0)
            + sw1 * pl.max(1 - (g - 1) * (g - 1), 0)
            + sw2 * pl.max(1 - (g - 2) * (g - 2), 0)
            + sw3 * pl.max(1 - (g - 3) * (g - 3), 0)
            + sw4 * pl.max(1 - (g - 4) * (g - 4), 0)
            + sw5 * pl.max(1 - (g - 5) * (g - 5), 0)
            + sw6 * pl.max(1 - (g - 6) * (g - 6), 0)
            + sw7 * pl.max(1 - (g - 7) * (g - 7), 0)
        )
        slot = (w // (1 + 4095 * f)) % 4096
        key_cache = pl.assemble(key_cache, k_new[tok : tok + 1, 0:KV_DIM], [slot, 0])
        value_cache = pl.assemble(value_cache, v_new[tok : tok + 1, 0:KV_DIM], [slot, 0])
    return key_cache, value_cache


@pl.jit.inline
def attention_seq(
    q_heads: pl.Tensor[[256, 128], pl.BF16],
    k_heads: pl.Tensor[[24576, 128], pl.BF16],
    v_heads: pl.Tensor[[24576, 128], pl.BF16],
    block_table: pl.Tensor[[192], pl.INT32],
    gqa_bias: pl.Tensor[[16, 128], pl.FP32],
    attn: pl.Tensor[[256, 128], pl.BF16],
    cw0: pl.Scalar[pl.INDEX],
    cw1: pl.Scalar[pl.INDEX],
    cw2: pl.Scalar[pl.INDEX],
    cw3: pl.Scalar[pl.INDEX],
    cw4: pl.Scalar[pl.INDEX],
    cw5: pl.Scalar[pl.INDEX],
    cw6: pl.Scalar[pl.INDEX],
    cw7: pl.Scalar[pl.INDEX],
):
    # One block per sequence, one dispatch: the context length of sequence b is unpacked from the
    # 8 words as the cache write unpacks its slots (two 12-bit fields a word).
    for b in pl.spmd(BATCH, name_hint="attention_seq", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        g = b // 2
        f = b - g * 2
        w = (
            cw0 * pl.max(1 - g * g, 0)
            + cw1 * pl.max(1 - (g - 1) * (g - 1), 0)
            + cw2 * pl.max(1 - (g - 2) * (g - 2), 0)
            + cw3 * pl.max(1 - (g - 3) * (g - 3), 0)
            + cw4 * pl.max(1 - (g - 4) * (g - 4), 0)
            + cw5 * pl.max(1 - (g - 5) * (g - 5), 0)
            + cw6 * pl.max(1 - (g - 6) * (g - 6), 0)
            + cw7 * pl.max(1 - (g - 7) * (g - 7), 0)
        )
        ctx_len = (w // (1 + 4095 * f)) % 4096
        n_blocks = (ctx_len + BLOCK_SIZE - 1) // BLOCK_SIZE
        q_b = q_heads[b * NUM_HEADS : b * NUM_HEADS + NUM_HEADS, 0:HEAD_DIM]
        bias = gqa_bias[0:NUM_HEADS, 0:BLOCK_COLS]
        neg_mat = pl.full([NUM_HEADS, BLOCK_COLS], dtype=pl.FP32, value=NEG)
        # The scores are rounded as the HF layer rounds them (a BF16 matmul result, times the scale
        # in BF16): with the large case's sharp softmax, FP32 scores put 3-9 of 32768 attention
        # outputs past two ULP of the reference (PORTING.md, attempt 10).
        # Pass 1: the running max of the masked scores, kept elementwise over the 128 key
        # columns: no row reduction and no rescale inside the loop.
        m_mat = pl.full([NUM_HEADS, BLOCK_COLS], dtype=pl.FP32, value=NEG)
        for j in pl.range(n_blocks):
            phys = pl.cast(pl.tensor.read(block_table, [b * MAX_BLOCKS + j]), pl.INDEX)
            kv0 = phys * BLOCK_COLS
            valid_cols = pl.min(BLOCK_COLS, (ctx_len - j * BLOCK_SIZE) * NUM_KV_HEADS)
            s_raw = pl.matmul(q_b, k_heads[kv0 : kv0 + BLOCK_COLS, 0:HEAD_DIM], b_trans=True, out_dtype=pl.FP32)
            s_pad = pl.fillpad(
                pl.set_validshape(
                    pl.add(
                        pl.cast(
                            pl.cast(
                                pl.mul(pl.cast(pl.cast(s_raw, target_type=pl.BF16, mode="rint"), target_type=pl.FP32), ATTN_SCALE),
                                target_type=pl.BF16,
                                mode="rint",
                            ),
                            target_type=pl.FP32,
                        ),
                        bias,
                    ),
                    NUM_HEADS,
                    valid_cols,
                ),
                pad_value=pl.PadValue.min,
            )
            m_mat = pl.maximum(m_mat, s_pad)
        m_bc = pl.row_expand_add(pl.mul(m_mat, 0.0), pl.row_max(m_mat))
        # Pass 2: the scores again, P = exp(S - m) with the sums kept elementwise, and P V summed
        # in the cube's accumulator (its first value is overwritten: init_cond at j == 0).
        o_acc = pl.matmul(q_b, v_heads[0:BLOCK_COLS, 0:HEAD_DIM], out_dtype=pl.FP32)
        l_mat = pl.full([NUM_HEADS, BLOCK_COLS], dtype=pl.FP32, value=0.0)
        for j in pl.range(n_blocks):
            phys = pl.cast(pl.tensor.read(block_table, [b * MAX_BLOCKS + j]), pl.INDEX)
            kv0 = phys * BLOCK_COLS
            valid_cols = pl.min(BLOCK_COLS, (ctx_len - j * BLOCK_SIZE) * NUM_KV_HEADS)
            s_raw = pl.matmul(q_b, k_heads[kv0 : kv0 + BLOCK_COLS, 0:HEAD_DIM], b_trans=True, out_dtype=pl.FP32)
            s_pad = pl.fillpad(
                pl.set_validshape(
                    pl.add(
                        pl.cast(
                            pl.cast(
                                pl.mul(pl.cast(pl.cast(s_raw, target_type=pl.BF16, mode="rint"), target_type=pl.FP32), ATTN_SCALE),
                                target_type=pl.BF16,
                                mode="rint",
                            ),
                            target_type=pl.FP32,
                        ),
                        bias,
                    ),
                    NUM_HEADS,
                    valid_cols,
                ),
                pad_value=pl.PadValue.min,
            )
            s_blk = pl.maximum(neg_mat, s_pad)
            p_f32 = pl.exp(pl.sub(s_blk, m_bc))
            l_mat = pl.add(l_mat, p_f32)
            p_blk = pl.cast(p_f32, target_type=pl.BF16, mode="rint")
            o_acc = pl.matmul_acc(o_acc, p_blk, v_heads[kv0 : kv0 + BLOCK_COLS, 0:HEAD_DIM], init_cond=j == 0)
        o_fin = pl.row_expand_div(o_acc, pl.row_sum(l_mat))
        attn = pl.assemble(attn, pl.cast(o_fin, target_type=pl.BF16, mode="rint"), [b * NUM_HEADS, 0])
    return attn


@pl.jit.inline
def o_proj_residual(
    a_rows: pl.Tensor[[16, 2048], pl.BF16],
    wo: pl.Tensor[[1024, 2048], pl.BF16],
    hidden_states: pl.Tensor[[16, 1024], pl.BF16],
    resid1: pl.Tensor[[16, 1024], pl.BF16],
):
    for nb in pl.spmd(HIDDEN // O_N_TILE, name_hint="o_proj_residual", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        n0 = nb * O_N_TILE
        acc = pl.matmul(a_rows[0:BATCH, 0:K_TILE], wo[n0 : n0 + O_N_TILE, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        for kb in pl.pipeline(1, Q_DIM // K_TILE, stage=2):
            k0 = kb * K_TILE
            acc = pl.matmul_acc(acc, a_rows[0:BATCH, k0 : k0 + K_TILE], wo[n0 : n0 + O_N_TILE, k0 : k0 + K_TILE], b_trans=True)
        h = pl.add(pl.cast(pl.cast(acc, target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(hidden_states[0:BATCH, n0 : n0 + O_N_TILE], target_type=pl.FP32))
        resid1 = pl.assemble(resid1, pl.cast(h, target_type=pl.BF16, mode="rint"), [0, n0])
    return resid1


@pl.jit.inline
def post_norm(
    x: pl.Tensor[[16, 1024], pl.BF16],
    w: pl.Tensor[[1, 1024], pl.BF16],
    xn: pl.Tensor[[16, 1024], pl.BF16],
):
    for rb in pl.spmd(BATCH // NORM_ROWS, name_hint="post_norm"):
        wf = pl.cast(w[0:1, 0:HIDDEN], target_type=pl.FP32)
        r0 = rb * NORM_ROWS
        xf = pl.cast(x[r0 : r0 + NORM_ROWS, 0:HIDDEN], target_type=pl.FP32)
        ssq = pl.row_sum(pl.mul(xf, xf))
        inv = pl.rsqrt(pl.add(pl.mul(ssq, 1.0 / HIDDEN), EPS))
        normed = pl.col_expand_mul(pl.cast(pl.cast(pl.row_expand_mul(xf, inv), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), wf)
        xn = pl.assemble(xn, pl.cast(normed, target_type=pl.BF16, mode="rint"), [r0, 0])
    return xn


@pl.jit.inline
def gate_up_silu(
    hn: pl.Tensor[[16, 1024], pl.BF16],
    w_gate: pl.Tensor[[3072, 1024], pl.BF16],
    w_up: pl.Tensor[[3072, 1024], pl.BF16],
    mlp: pl.Tensor[[16, 3072], pl.BF16],
):
    for nb in pl.spmd(INTER // MLP_N_TILE, name_hint="gate_up_silu", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        n0 = nb * MLP_N_TILE
        g = pl.matmul(hn[0:BATCH, 0:K_TILE], w_gate[n0 : n0 + MLP_N_TILE, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        u = pl.matmul(hn[0:BATCH, 0:K_TILE], w_up[n0 : n0 + MLP_N_TILE, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        for kb in pl.pipeline(1, HIDDEN // K_TILE, stage=2):
            k0 = kb * K_TILE
            g = pl.matmul_acc(g, hn[0:BATCH, k0 : k0 + K_TILE], w_gate[n0 : n0 + MLP_N_TILE, k0 : k0 + K_TILE], b_trans=True)
            u = pl.matmul_acc(u, hn[0:BATCH, k0 : k0 + K_TILE], w_up[n0 : n0 + MLP_N_TILE, k0 : k0 + K_TILE], b_trans=True)
        g = pl.cast(pl.cast(g, target_type=pl.BF16, mode="rint"), target_type=pl.FP32)
        sig = pl.recip(pl.add(pl.exp(pl.neg(g)), 1.0))
        act = pl.mul(pl.cast(pl.cast(pl.mul(g, sig), target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(pl.cast(u, target_type=pl.BF16, mode="rint"), target_type=pl.FP32))
        mlp = pl.assemble(mlp, pl.cast(act, target_type=pl.BF16, mode="rint"), [0, n0])
    return mlp


@pl.jit.inline
def down_residual(
    mlp: pl.Tensor[[16, 3072], pl.BF16],
    w_down: pl.Tensor[[1024, 3072], pl.BF16],
    resid1: pl.Tensor[[16, 1024], pl.BF16],
    out: pl.Tensor[[16, 1024], pl.BF16],
):
    for nb in pl.spmd(HIDDEN // O_N_TILE, name_hint="down_residual", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        n0 = nb * O_N_TILE
        acc = pl.matmul(mlp[0:BATCH, 0:K_TILE], w_down[n0 : n0 + O_N_TILE, 0:K_TILE], b_trans=True, out_dtype=pl.FP32)
        for kb in pl.pipeline(1, INTER // K_TILE, stage=2):
            k0 = kb * K_TILE
            acc = pl.matmul_acc(acc, mlp[0:BATCH, k0 : k0 + K_TILE], w_down[n0 : n0 + O_N_TILE, k0 : k0 + K_TILE], b_trans=True)
        y = pl.add(pl.cast(pl.cast(acc, target_type=pl.BF16, mode="rint"), target_type=pl.FP32), pl.cast(resid1[0:BATCH, n0 : n0 + O_N_TILE], target_type=pl.FP32))
        out = pl.assemble(out, pl.cast(y, target_type=pl.BF16, mode="rint"), [0, n0])
    return out
