"""Incore functions of the naive form of decoder_attention_block: one kernel per operation of the
original (RMSNorm, each projection, the casts to BF16 the module makes, RoPE on q and on k, QK^T,
mask and softmax, PV, the residual add), every intermediate through GM:

  rmsnorm_k    AIV  x [32, 256] BF16 -> FP32 mean of squares, 1/sqrt(. + eps), x the weight -> BF16
  proj256_k    AIC  [64, 256] BF16 x 64 rows of a [256, 256] weight, transposed -> [64, 64] FP32
                    (q_proj and o_proj, one task per 64 output columns)
  proj128_k    AIC  the same with a [128, 256] weight (k_proj and v_proj)
  cast256_k    AIV  [32, 256] FP32 -> BF16 (q, and the attention output)
  cast128_k    AIV  [64, 128] FP32 -> BF16 (k, v)
  rope_q_k     AIV  one query head: x * cos + rotate_half(x) * sin, by its two 32-column halves
  rope_k_k     AIV  the same on one key head
  qk_k         AIC  [64, 64] roped queries of head h x the roped keys of KV head h // 2, transposed
                    -> [64, 64] FP32 scores (rows h * 64 + i of a [256, 64] score tensor)
  softmax_k    AIV  [32, 64] scores: x 1/8, + -1e30 where key j > query i, max, exp(s - max), sum,
                    divide, P to BF16
  pv_k         AIC  P [64, 64] x the values of KV head h // 2 -> the head's 64 columns, FP32
  residual_k   AIV  x + o_proj's output -> h BF16
The speed baseline the scorer compares attempts with."""
import pypto.language as pl

SEQ = 64
HIDDEN = 256
HEAD_DIM = 64
HALF = 32
VEC_ROWS = 32
N_TILE = 64
EPS = 1e-6
INV_SQRT_D = 0.125
NEG_BIG = -1.0e30


@pl.jit.incore
def rmsnorm_k(x: pl.Tensor[[64, 256], pl.BF16], norm_w: pl.Tensor[[1, 256], pl.BF16],
              xn: pl.Out[pl.Tensor[[64, 256], pl.BF16]], r0: pl.Scalar[pl.INDEX]):
    xf = pl.cast(pl.load(x, [r0, 0], [VEC_ROWS, HIDDEN]), target_type=pl.FP32)
    tmp = pl.create_tile([VEC_ROWS, HIDDEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    ssq = pl.reshape(pl.row_sum(pl.mul(xf, xf), tmp), [1, VEC_ROWS])
    ones = pl.tile.full([1, VEC_ROWS], dtype=pl.FP32, value=1.0)
    inv = pl.div(ones, pl.sqrt(pl.add(pl.mul(ssq, 1.0 / HIDDEN), EPS)))
    normed = pl.row_expand_mul(xf, pl.reshape(inv, [VEC_ROWS, 1]))
    w = pl.cast(pl.load(norm_w, [0, 0], [1, HIDDEN]), target_type=pl.FP32)
    pl.store(pl.cast(pl.col_expand_mul(normed, w), target_type=pl.BF16), [r0, 0], xn)
    return xn


@pl.jit.incore
def proj256_k(a: pl.Tensor[[64, 256], pl.BF16], weight: pl.Tensor[[256, 256], pl.BF16],
              y: pl.Out[pl.Tensor[[64, 256], pl.FP32]], n0: pl.Scalar[pl.INDEX]):
    a_mat = pl.load(a, [0, 0], [SEQ, HIDDEN], target_memory=pl.MemorySpace.Mat)
    w_mat = pl.load(weight, [n0, 0], [N_TILE, HIDDEN], target_memory=pl.MemorySpace.Mat)
    a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
    w_right = pl.move(pl.tile.transpose_view(w_mat), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(a_left, w_right), [0, n0], y)
    return y


@pl.jit.incore
def proj128_k(a: pl.Tensor[[64, 256], pl.BF16], weight: pl.Tensor[[128, 256], pl.BF16],
              y: pl.Out[pl.Tensor[[64, 128], pl.FP32]], n0: pl.Scalar[pl.INDEX]):
    a_mat = pl.load(a, [0, 0], [SEQ, HIDDEN], target_memory=pl.MemorySpace.Mat)
    w_mat = pl.load(weight, [n0, 0], [N_TILE, HIDDEN], target_memory=pl.MemorySpace.Mat)
    a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
    w_right = pl.move(pl.tile.transpose_view(w_mat), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(a_left, w_right), [0, n0], y)
    return y


@pl.jit.incore
def cast256_k(src: pl.Tensor[[64, 256], pl.FP32], dst: pl.Out[pl.Tensor[[64, 256], pl.BF16]],
              r0: pl.Scalar[pl.INDEX]):
    tile = pl.load(src, [r0, 0], [VEC_ROWS, HIDDEN])
    pl.store(pl.cast(tile, target_type=pl.BF16), [r0, 0], dst)
    return dst


@pl.jit.incore
def cast128_k(src: pl.Tensor[[64, 128], pl.FP32], dst: pl.Out[pl.Tensor[[64, 128], pl.BF16]]):
    tile = pl.load(src, [0, 0], [SEQ, 2 * HEAD_DIM])
    pl.store(pl.cast(tile, target_type=pl.BF16), [0, 0], dst)
    return dst


@pl.jit.incore
def rope_q_k(q: pl.Tensor[[64, 256], pl.BF16], cos: pl.Tensor[[64, 64], pl.BF16], sin: pl.Tensor[[64, 64], pl.BF16],
             q_rot: pl.Out[pl.Tensor[[64, 256], pl.BF16]], c0: pl.Scalar[pl.INDEX]):
    lower = pl.cast(pl.load(q, [0, c0], [SEQ, HALF]), target_type=pl.FP32)
    upper = pl.cast(pl.load(q, [0, c0 + HALF], [SEQ, HALF]), target_type=pl.FP32)
    cos_lo = pl.cast(pl.load(cos, [0, 0], [SEQ, HALF]), target_type=pl.FP32)
    cos_hi = pl.cast(pl.load(cos, [0, HALF], [SEQ, HALF]), target_type=pl.FP32)
    sin_lo = pl.cast(pl.load(sin, [0, 0], [SEQ, HALF]), target_type=pl.FP32)
    sin_hi = pl.cast(pl.load(sin, [0, HALF], [SEQ, HALF]), target_type=pl.FP32)
    out_lo = pl.sub(pl.mul(lower, cos_lo), pl.mul(upper, sin_lo))
    out_hi = pl.add(pl.mul(upper, cos_hi), pl.mul(lower, sin_hi))
    pl.store(pl.cast(out_lo, target_type=pl.BF16), [0, c0], q_rot)
    pl.store(pl.cast(out_hi, target_type=pl.BF16), [0, c0 + HALF], q_rot)
    return q_rot


@pl.jit.incore
def rope_k_k(k: pl.Tensor[[64, 128], pl.BF16], cos: pl.Tensor[[64, 64], pl.BF16], sin: pl.Tensor[[64, 64], pl.BF16],
             k_rot: pl.Out[pl.Tensor[[64, 128], pl.BF16]], c0: pl.Scalar[pl.INDEX]):
    lower = pl.cast(pl.load(k, [0, c0], [SEQ, HALF]), target_type=pl.FP32)
    upper = pl.cast(pl.load(k, [0, c0 + HALF], [SEQ, HALF]), target_type=pl.FP32)
    cos_lo = pl.cast(pl.load(cos, [0, 0], [SEQ, HALF]), target_type=pl.FP32)
    cos_hi = pl.cast(pl.load(cos, [0, HALF], [SEQ, HALF]), target_type=pl.FP32)
    sin_lo = pl.cast(pl.load(sin, [0, 0], [SEQ, HALF]), target_type=pl.FP32)
    sin_hi = pl.cast(pl.load(sin, [0, HALF], [SEQ, HALF]), target_type=pl.FP32)
    out_lo = pl.sub(pl.mul(lower, cos_lo), pl.mul(upper, sin_lo))
    out_hi = pl.add(pl.mul(upper, cos_hi), pl.mul(lower, sin_hi))
    pl.store(pl.cast(out_lo, target_type=pl.BF16), [0, c0], k_rot)
    pl.store(pl.cast(out_hi, target_type=pl.BF16), [0, c0 + HALF], k_rot)
    return k_rot


@pl.jit.incore
def qk_k(q_rot: pl.Tensor[[64, 256], pl.BF16], k_rot: pl.Tensor[[64, 128], pl.BF16],
         s: pl.Out[pl.Tensor[[256, 64], pl.FP32]],
         q_col: pl.Scalar[pl.INDEX], kv_col: pl.Scalar[pl.INDEX], s_row: pl.Scalar[pl.INDEX]):
    q_mat = pl.load(q_rot, [0, q_col], [SEQ, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    k_mat = pl.load(k_rot, [0, kv_col], [SEQ, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    q_left = pl.move(q_mat, target_memory=pl.MemorySpace.Left)
    k_right = pl.move(pl.tile.transpose_view(k_mat), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(q_left, k_right), [s_row, 0], s)
    return s


@pl.jit.incore
def softmax_k(s: pl.Tensor[[256, 64], pl.FP32], p: pl.Out[pl.Tensor[[256, 64], pl.BF16]],
              r0: pl.Scalar[pl.INDEX], i0: pl.Scalar[pl.INDEX]):
    # Row r of the tile is query i0 + r: keys j >= i0 + r + 1 are in its future.
    scores = pl.mul(pl.load(s, [r0, 0], [VEC_ROWS, SEQ]), INV_SQRT_D)
    future = pl.tile.tri(pl.cast(i0 + 1, pl.INT32), [VEC_ROWS, SEQ], dtype=pl.FP32, upper=True)
    masked = pl.add(scores, pl.mul(future, NEG_BIG))
    tmp = pl.create_tile([VEC_ROWS, SEQ], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    row_max = pl.row_max(masked, tmp)
    e = pl.exp(pl.row_expand_sub(masked, row_max))
    tmp2 = pl.create_tile([VEC_ROWS, SEQ], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    row_sum = pl.row_sum(e, tmp2)
    pl.store(pl.cast(pl.row_expand_div(e, row_sum), target_type=pl.BF16), [r0, 0], p)
    return p


@pl.jit.incore
def pv_k(p: pl.Tensor[[256, 64], pl.BF16], v: pl.Tensor[[64, 128], pl.BF16],
         attn: pl.Out[pl.Tensor[[64, 256], pl.FP32]],
         p_row: pl.Scalar[pl.INDEX], kv_col: pl.Scalar[pl.INDEX], o_col: pl.Scalar[pl.INDEX]):
    p_mat = pl.load(p, [p_row, 0], [SEQ, SEQ], target_memory=pl.MemorySpace.Mat)
    v_mat = pl.load(v, [0, kv_col], [SEQ, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    acc = pl.matmul(pl.move(p_mat, target_memory=pl.MemorySpace.Left), pl.move(v_mat, target_memory=pl.MemorySpace.Right))
    pl.store(acc, [0, o_col], attn)
    return attn


@pl.jit.incore
def residual_k(x: pl.Tensor[[64, 256], pl.BF16], o: pl.Tensor[[64, 256], pl.FP32],
               h: pl.Out[pl.Tensor[[64, 256], pl.BF16]], r0: pl.Scalar[pl.INDEX]):
    xf = pl.cast(pl.load(x, [r0, 0], [VEC_ROWS, HIDDEN]), target_type=pl.FP32)
    of = pl.load(o, [r0, 0], [VEC_ROWS, HIDDEN])
    pl.store(pl.cast(pl.add(xf, of), target_type=pl.BF16), [r0, 0], h)
    return h
