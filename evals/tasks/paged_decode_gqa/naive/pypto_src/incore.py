"""Incore functions of the naive form of paged_attention_decode: one kernel per operation of the
original (gather K, gather V, QK^T, scale, row max, subtract, exp, row sum, divide, P to BF16, PV,
out to BF16), every intermediate through GM:

  gather_key_k, gather_value_k
              AIV  one 32-token cache block (both KV heads, [32, 256] BF16) copied to the
                   sequence's contiguous rows (the orchestration reads the block table)
  qk_k        AIC  the 16 query heads of one KV head x one gathered key block -> [16, 32] FP32
                   columns of the sequence's score rows
  scale_k .. cast_p_k
              AIV  the sequence's 32 score rows, [32, 256] FP32 tiles of valid width = its length
                   (the cut at the length: -inf for the max, 0 for the sum, P zero up to the block
                   boundary)
  pv_k        AIC  the 16 heads of one KV head: a loop over the sequence's blocks, [16, 32] P x
                   [32, 128] V accumulated in Acc
  cast_out_k  AIV  the sequence's [32, 128] FP32 output -> BF16
Score rows are query rows (sequence * 32 + head); query heads g * 16 .. g * 16 + 15 use KV head g,
columns g * 128 .. g * 128 + 127 of the cache. The speed baseline the scorer compares attempts
with."""
import pypto.language as pl

NUM_HEADS = 32
GROUP = 16
HEAD_SIZE = 128
KV_WIDTH = 256
BLOCK_SIZE = 32
MAX_LEN = 256
SCALE = 0.08838834764831845


@pl.jit.incore
def gather_key_k(key_cache: pl.Tensor[[1280, 256], pl.BF16], k_seq: pl.Out[pl.Tensor[[1024, 256], pl.BF16]],
                 src_row: pl.Scalar[pl.INDEX], dst_row: pl.Scalar[pl.INDEX]):
    blk = pl.load(key_cache, [src_row, 0], [BLOCK_SIZE, KV_WIDTH])
    pl.store(blk, [dst_row, 0], k_seq)
    return k_seq


@pl.jit.incore
def gather_value_k(value_cache: pl.Tensor[[1280, 256], pl.BF16], v_seq: pl.Out[pl.Tensor[[1024, 256], pl.BF16]],
                   src_row: pl.Scalar[pl.INDEX], dst_row: pl.Scalar[pl.INDEX]):
    blk = pl.load(value_cache, [src_row, 0], [BLOCK_SIZE, KV_WIDTH])
    pl.store(blk, [dst_row, 0], v_seq)
    return v_seq


@pl.jit.incore
def qk_k(query: pl.Tensor[[128, 128], pl.BF16], k_seq: pl.Tensor[[1024, 256], pl.BF16],
         s: pl.Out[pl.Tensor[[128, 256], pl.FP32]],
         q_row: pl.Scalar[pl.INDEX], k_row: pl.Scalar[pl.INDEX], kv_col: pl.Scalar[pl.INDEX], s_col: pl.Scalar[pl.INDEX]):
    q_mat = pl.load(query, [q_row, 0], [GROUP, HEAD_SIZE], target_memory=pl.MemorySpace.Mat)
    k_mat = pl.load(k_seq, [k_row, kv_col], [BLOCK_SIZE, HEAD_SIZE], target_memory=pl.MemorySpace.Mat)
    q_left = pl.move(q_mat, target_memory=pl.MemorySpace.Left)
    k_right = pl.move(pl.tile.transpose_view(k_mat), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(q_left, k_right), [q_row, s_col], s)
    return s


@pl.jit.incore
def scale_k(s: pl.Tensor[[128, 256], pl.FP32], s_scaled: pl.Out[pl.Tensor[[128, 256], pl.FP32]],
            r0: pl.Scalar[pl.INDEX], n: pl.Scalar[pl.INDEX]):
    t = pl.load(s, [r0, 0], [NUM_HEADS, MAX_LEN], valid_shape=[NUM_HEADS, n])
    pl.store(pl.mul(t, SCALE), [r0, 0], s_scaled)
    return s_scaled


@pl.jit.incore
def row_max_k(s_scaled: pl.Tensor[[128, 256], pl.FP32], m: pl.Out[pl.Tensor[[128, 1], pl.FP32]],
              r0: pl.Scalar[pl.INDEX], n: pl.Scalar[pl.INDEX]):
    # The original keeps the first n tokens: the columns past n count as -inf in the max.
    t = pl.load(s_scaled, [r0, 0], [NUM_HEADS, MAX_LEN], valid_shape=[NUM_HEADS, n])
    tmp = pl.create_tile([NUM_HEADS, MAX_LEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(pl.tile.fillpad(t, pad_value=pl.PadValue.min), tmp), [r0, 0], m)
    return m


@pl.jit.incore
def sub_k(s_scaled: pl.Tensor[[128, 256], pl.FP32], m: pl.Tensor[[128, 1], pl.FP32],
          shifted: pl.Out[pl.Tensor[[128, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX], n: pl.Scalar[pl.INDEX]):
    t = pl.load(s_scaled, [r0, 0], [NUM_HEADS, MAX_LEN], valid_shape=[NUM_HEADS, n])
    mt = pl.load(m, [r0, 0], [NUM_HEADS, 1])
    pl.store(pl.row_expand_sub(t, mt), [r0, 0], shifted)
    return shifted


@pl.jit.incore
def exp_k(shifted: pl.Tensor[[128, 256], pl.FP32], e: pl.Out[pl.Tensor[[128, 256], pl.FP32]],
          r0: pl.Scalar[pl.INDEX], n: pl.Scalar[pl.INDEX]):
    t = pl.load(shifted, [r0, 0], [NUM_HEADS, MAX_LEN], valid_shape=[NUM_HEADS, n])
    pl.store(pl.exp(t), [r0, 0], e)
    return e


@pl.jit.incore
def row_sum_k(e: pl.Tensor[[128, 256], pl.FP32], l: pl.Out[pl.Tensor[[128, 1], pl.FP32]],
              r0: pl.Scalar[pl.INDEX], n: pl.Scalar[pl.INDEX]):
    # The columns past n count as 0 in the sum.
    t = pl.load(e, [r0, 0], [NUM_HEADS, MAX_LEN], valid_shape=[NUM_HEADS, n])
    tmp = pl.create_tile([NUM_HEADS, MAX_LEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(pl.tile.fillpad(t, pad_value=pl.PadValue.zero), tmp), [r0, 0], l)
    return l


@pl.jit.incore
def div_k(e: pl.Tensor[[128, 256], pl.FP32], l: pl.Tensor[[128, 1], pl.FP32],
          probs: pl.Out[pl.Tensor[[128, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX], n: pl.Scalar[pl.INDEX]):
    t = pl.load(e, [r0, 0], [NUM_HEADS, MAX_LEN], valid_shape=[NUM_HEADS, n])
    lt = pl.load(l, [r0, 0], [NUM_HEADS, 1])
    pl.store(pl.row_expand_div(t, lt), [r0, 0], probs)
    return probs


@pl.jit.incore
def cast_p_k(probs: pl.Tensor[[128, 256], pl.FP32], p: pl.Out[pl.Tensor[[128, 256], pl.BF16]],
             r0: pl.Scalar[pl.INDEX], n: pl.Scalar[pl.INDEX], n_pad: pl.Scalar[pl.INDEX]):
    # PV multiplies whole 32-token blocks: P is written up to the block boundary n_pad, zero past n
    # (the poisoned slots of the last block are then multiplied by 0).
    t = pl.load(probs, [r0, 0], [NUM_HEADS, MAX_LEN], valid_shape=[NUM_HEADS, n])
    padded = pl.tile.set_validshape(pl.tile.fillpad(t, pad_value=pl.PadValue.zero), NUM_HEADS, n_pad)
    pl.store(pl.cast(padded, target_type=pl.BF16), [r0, 0], p)
    return p


@pl.jit.incore
def pv_k(p: pl.Tensor[[128, 256], pl.BF16], v_seq: pl.Tensor[[1024, 256], pl.BF16],
         o: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
         q_row: pl.Scalar[pl.INDEX], v_row: pl.Scalar[pl.INDEX], kv_col: pl.Scalar[pl.INDEX],
         n_blocks: pl.Scalar[pl.INDEX]):
    p_mat = pl.load(p, [q_row, 0], [GROUP, BLOCK_SIZE], target_memory=pl.MemorySpace.Mat)
    v_mat = pl.load(v_seq, [v_row, kv_col], [BLOCK_SIZE, HEAD_SIZE], target_memory=pl.MemorySpace.Mat)
    acc = pl.matmul(pl.move(p_mat, target_memory=pl.MemorySpace.Left), pl.move(v_mat, target_memory=pl.MemorySpace.Right))
    for j in pl.range(1, n_blocks):
        pj_mat = pl.load(p, [q_row, j * BLOCK_SIZE], [GROUP, BLOCK_SIZE], target_memory=pl.MemorySpace.Mat)
        vj_mat = pl.load(v_seq, [v_row + j * BLOCK_SIZE, kv_col], [BLOCK_SIZE, HEAD_SIZE], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul_acc(
            acc,
            pl.move(pj_mat, target_memory=pl.MemorySpace.Left),
            pl.move(vj_mat, target_memory=pl.MemorySpace.Right),
        )
    pl.store(acc, [q_row, 0], o)
    return o


@pl.jit.incore
def cast_out_k(o: pl.Tensor[[128, 128], pl.FP32], out: pl.Out[pl.Tensor[[128, 128], pl.BF16]],
               r0: pl.Scalar[pl.INDEX]):
    t = pl.load(o, [r0, 0], [NUM_HEADS, HEAD_SIZE])
    pl.store(pl.cast(t, target_type=pl.BF16), [r0, 0], out)
    return out
