"""Incore functions of the naive form of sliding_window_attention: one kernel per operation of the
original (QK^T, scale, window mask, row max, subtract, exp, row sum, divide, P to BF16, PV, out to
BF16), each over whole 256-key score rows of one query head (the keys outside the window included,
then masked), every intermediate through GM:

  qk_k        AIC  [64, 128] queries of head h x the keys in 2 chunks of [128, 128] -> [64, 256] FP32
  scale_k     AIV  s * 1/sqrt(128)                                  [32, 256] FP32 row tiles
  mask_k      AIV  + -1e30 where key j > query i or j <= i - 100 (two triangular tiles made on chip)
  row_max_k   AIV  max over the 256 keys                            -> [32, 1]
  sub_k       AIV  s - max
  exp_k       AIV  exp
  row_sum_k   AIV  sum over the 256 keys                            -> [32, 1]
  div_k       AIV  e / sum
  cast_p_k    AIV  P to BF16 (the cube's operand)
  pv_k        AIC  [64, 256] P x the [256, 128] values, 2 K steps of 128 accumulated -> [64, 128] FP32
  cast_out_k  AIV  [64, 128] FP32 -> BF16 into the head's columns of out
Score rows are head-major ([4 * 256, 256]: row h * 256 + i); q and out keep the original's
token-major layout ([tokens, heads * 128]), a head being a 128-column slice; the 4 query heads share
the one key/value head (k, v: [256, 128]). The speed baseline the scorer compares attempts with."""
import pypto.language as pl

SEQ = 256
HEAD_DIM = 128
CUBE_ROWS = 64
VEC_ROWS = 32
KEY_CHUNK = 128
WINDOW = 100
INV_SQRT_D = 0.08838834764831845
NEG_BIG = -1.0e30


@pl.jit.incore
def qk_k(q: pl.Tensor[[256, 512], pl.BF16], k: pl.Tensor[[256, 128], pl.BF16],
         s: pl.Out[pl.Tensor[[1024, 256], pl.FP32]],
         i0: pl.Scalar[pl.INDEX], q_col: pl.Scalar[pl.INDEX], s_row: pl.Scalar[pl.INDEX]):
    q_mat = pl.load(q, [i0, q_col], [CUBE_ROWS, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    q_left = pl.move(q_mat, target_memory=pl.MemorySpace.Left)
    for c in pl.range(SEQ // KEY_CHUNK):
        k_mat = pl.load(k, [c * KEY_CHUNK, 0], [KEY_CHUNK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
        k_right = pl.move(pl.tile.transpose_view(k_mat), target_memory=pl.MemorySpace.Right)
        pl.store(pl.matmul(q_left, k_right), [s_row, c * KEY_CHUNK], s)
    return s


@pl.jit.incore
def scale_k(s: pl.Tensor[[1024, 256], pl.FP32], s_scaled: pl.Out[pl.Tensor[[1024, 256], pl.FP32]],
            r0: pl.Scalar[pl.INDEX]):
    t = pl.load(s, [r0, 0], [VEC_ROWS, SEQ])
    pl.store(pl.mul(t, INV_SQRT_D), [r0, 0], s_scaled)
    return s_scaled


@pl.jit.incore
def mask_k(s_scaled: pl.Tensor[[1024, 256], pl.FP32], s_masked: pl.Out[pl.Tensor[[1024, 256], pl.FP32]],
           r0: pl.Scalar[pl.INDEX], i0: pl.Scalar[pl.INDEX]):
    # Row r of the tile is query i0 + r: keys j >= i0 + r + 1 are in its future, keys
    # j <= i0 + r - WINDOW have left its window.
    t = pl.load(s_scaled, [r0, 0], [VEC_ROWS, SEQ])
    future = pl.tile.tri(pl.cast(i0 + 1, pl.INT32), [VEC_ROWS, SEQ], dtype=pl.FP32, upper=True)
    stale = pl.tile.tri(pl.cast(i0 - WINDOW, pl.INT32), [VEC_ROWS, SEQ], dtype=pl.FP32)
    pl.store(pl.add(t, pl.mul(pl.add(future, stale), NEG_BIG)), [r0, 0], s_masked)
    return s_masked


@pl.jit.incore
def row_max_k(s_masked: pl.Tensor[[1024, 256], pl.FP32], m: pl.Out[pl.Tensor[[1024, 1], pl.FP32]],
              r0: pl.Scalar[pl.INDEX]):
    t = pl.load(s_masked, [r0, 0], [VEC_ROWS, SEQ])
    tmp = pl.create_tile([VEC_ROWS, SEQ], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(t, tmp), [r0, 0], m)
    return m


@pl.jit.incore
def sub_k(s_masked: pl.Tensor[[1024, 256], pl.FP32], m: pl.Tensor[[1024, 1], pl.FP32],
          shifted: pl.Out[pl.Tensor[[1024, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(s_masked, [r0, 0], [VEC_ROWS, SEQ])
    mt = pl.load(m, [r0, 0], [VEC_ROWS, 1])
    pl.store(pl.row_expand_sub(t, mt), [r0, 0], shifted)
    return shifted


@pl.jit.incore
def exp_k(shifted: pl.Tensor[[1024, 256], pl.FP32], e: pl.Out[pl.Tensor[[1024, 256], pl.FP32]],
          r0: pl.Scalar[pl.INDEX]):
    t = pl.load(shifted, [r0, 0], [VEC_ROWS, SEQ])
    pl.store(pl.exp(t), [r0, 0], e)
    return e


@pl.jit.incore
def row_sum_k(e: pl.Tensor[[1024, 256], pl.FP32], l: pl.Out[pl.Tensor[[1024, 1], pl.FP32]],
              r0: pl.Scalar[pl.INDEX]):
    t = pl.load(e, [r0, 0], [VEC_ROWS, SEQ])
    tmp = pl.create_tile([VEC_ROWS, SEQ], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(t, tmp), [r0, 0], l)
    return l


@pl.jit.incore
def div_k(e: pl.Tensor[[1024, 256], pl.FP32], l: pl.Tensor[[1024, 1], pl.FP32],
          probs: pl.Out[pl.Tensor[[1024, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(e, [r0, 0], [VEC_ROWS, SEQ])
    lt = pl.load(l, [r0, 0], [VEC_ROWS, 1])
    pl.store(pl.row_expand_div(t, lt), [r0, 0], probs)
    return probs


@pl.jit.incore
def cast_p_k(probs: pl.Tensor[[1024, 256], pl.FP32], p: pl.Out[pl.Tensor[[1024, 256], pl.BF16]],
             r0: pl.Scalar[pl.INDEX]):
    t = pl.load(probs, [r0, 0], [VEC_ROWS, SEQ])
    pl.store(pl.cast(t, target_type=pl.BF16), [r0, 0], p)
    return p


@pl.jit.incore
def pv_k(p: pl.Tensor[[1024, 256], pl.BF16], v: pl.Tensor[[256, 128], pl.BF16],
         o: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
         p_row: pl.Scalar[pl.INDEX], i0: pl.Scalar[pl.INDEX], o_col: pl.Scalar[pl.INDEX]):
    p_mat = pl.load(p, [p_row, 0], [CUBE_ROWS, KEY_CHUNK], target_memory=pl.MemorySpace.Mat)
    v_mat = pl.load(v, [0, 0], [KEY_CHUNK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    acc = pl.matmul(pl.move(p_mat, target_memory=pl.MemorySpace.Left), pl.move(v_mat, target_memory=pl.MemorySpace.Right))
    for c in pl.range(1, SEQ // KEY_CHUNK):
        pc_mat = pl.load(p, [p_row, c * KEY_CHUNK], [CUBE_ROWS, KEY_CHUNK], target_memory=pl.MemorySpace.Mat)
        vc_mat = pl.load(v, [c * KEY_CHUNK, 0], [KEY_CHUNK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul_acc(
            acc,
            pl.move(pc_mat, target_memory=pl.MemorySpace.Left),
            pl.move(vc_mat, target_memory=pl.MemorySpace.Right),
        )
    pl.store(acc, [i0, o_col], o)
    return o


@pl.jit.incore
def cast_out_k(o: pl.Tensor[[256, 512], pl.FP32], out: pl.Out[pl.Tensor[[256, 512], pl.BF16]],
               i0: pl.Scalar[pl.INDEX], o_col: pl.Scalar[pl.INDEX]):
    t = pl.load(o, [i0, o_col], [CUBE_ROWS, HEAD_DIM])
    pl.store(pl.cast(t, target_type=pl.BF16), [i0, o_col], out)
    return out
