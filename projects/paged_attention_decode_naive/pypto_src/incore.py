"""Incore functions of the naive port of paged_attention_decode: one kernel per operation of the
original (gather K, gather V, QK^T, scale, row max, subtract, exp, row sum, divide, cast P, PV,
cast out), each loading its operands from GM and storing its result to GM. The measured baseline
the port (projects/paged_attention_decode) is compared with in its PORTING.md.

Tiling, only as much as each kernel needs:
  gather_k / gather_v  one [64, 128] BF16 cache block per dispatch (the block table is read by the
                       orchestration), copied to the sequence's contiguous rows
  qk_k                 AIC, one [64, 128] x [64, 128]^T key block per dispatch -> [64, 64] FP32
                       columns of the sequence's score rows
  scale_k .. cast_p_k  AIV, [16, 512] FP32 row tiles (a [64, 512] row block with its reduction
                       scratch would be 256 KiB, over Vec), valid width = the context length
  pv_k                 AIC, the whole context of a sequence: a K loop over its blocks
                       ([64, 64] P x [64, 128] V per step) accumulated in Acc
  cast_out_k           AIV, the sequence's [64, 128] FP32 output -> BF16
Every kernel gets whole tensors plus scalar offsets and stores at the offset.
"""
import pypto.language as pl

NUM_HEADS = 64
HEAD_DIM = 128
BLOCK_SIZE = 64
MAX_CTX = 512
ROW_TILE = 16
ATTN_SCALE = 0.08838834764831845


@pl.jit.incore
def gather_k(
    key_cache: pl.Tensor[[2048, 128], pl.BF16],
    k_seq: pl.Out[pl.Tensor[[2048, 128], pl.BF16]],
    src_row: pl.Scalar[pl.INDEX],
    dst_row: pl.Scalar[pl.INDEX],
):
    t = pl.load(key_cache, [src_row, 0], [BLOCK_SIZE, HEAD_DIM])
    pl.store(t, [dst_row, 0], k_seq)
    return k_seq


@pl.jit.incore
def gather_v(
    value_cache: pl.Tensor[[2048, 128], pl.BF16],
    v_seq: pl.Out[pl.Tensor[[2048, 128], pl.BF16]],
    src_row: pl.Scalar[pl.INDEX],
    dst_row: pl.Scalar[pl.INDEX],
):
    t = pl.load(value_cache, [src_row, 0], [BLOCK_SIZE, HEAD_DIM])
    pl.store(t, [dst_row, 0], v_seq)
    return v_seq


@pl.jit.incore
def qk_k(
    query: pl.Tensor[[256, 128], pl.BF16],
    k_seq: pl.Tensor[[2048, 128], pl.BF16],
    s: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
    q_row: pl.Scalar[pl.INDEX],
    k_row: pl.Scalar[pl.INDEX],
    s_col: pl.Scalar[pl.INDEX],
):
    q_l1 = pl.load(query, [q_row, 0], [NUM_HEADS, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    k_l1 = pl.load(k_seq, [k_row, 0], [BLOCK_SIZE, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    q_l0 = pl.move(q_l1, target_memory=pl.MemorySpace.Left)
    kt_l0 = pl.move(pl.tile.transpose_view(k_l1), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(q_l0, kt_l0), [q_row, s_col], s)
    return s


@pl.jit.incore
def scale_k(
    s: pl.Tensor[[256, 512], pl.FP32],
    scale: pl.Scalar[pl.FP32],
    s_scaled: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    n: pl.Scalar[pl.INDEX],
):
    t = pl.load(s, [r0, 0], [ROW_TILE, MAX_CTX], valid_shape=[ROW_TILE, n])
    pl.store(pl.mul(t, scale), [r0, 0], s_scaled)
    return s_scaled


@pl.jit.incore
def row_max_k(
    s_scaled: pl.Tensor[[256, 512], pl.FP32],
    m: pl.Out[pl.Tensor[[256, 1], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    n: pl.Scalar[pl.INDEX],
):
    # The original cuts the keys at the context length: columns >= n are -inf for the max.
    t = pl.load(s_scaled, [r0, 0], [ROW_TILE, MAX_CTX], valid_shape=[ROW_TILE, n])
    masked = pl.tile.fillpad(t, pad_value=pl.PadValue.min)
    scratch = pl.create_tile([ROW_TILE, MAX_CTX], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(masked, scratch), [r0, 0], m)
    return m


@pl.jit.incore
def sub_k(
    s_scaled: pl.Tensor[[256, 512], pl.FP32],
    m: pl.Tensor[[256, 1], pl.FP32],
    shifted: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    n: pl.Scalar[pl.INDEX],
):
    t = pl.load(s_scaled, [r0, 0], [ROW_TILE, MAX_CTX], valid_shape=[ROW_TILE, n])
    mt = pl.load(m, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_sub(t, mt), [r0, 0], shifted)
    return shifted


@pl.jit.incore
def exp_k(
    shifted: pl.Tensor[[256, 512], pl.FP32],
    e: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    n: pl.Scalar[pl.INDEX],
):
    t = pl.load(shifted, [r0, 0], [ROW_TILE, MAX_CTX], valid_shape=[ROW_TILE, n])
    pl.store(pl.exp(t), [r0, 0], e)
    return e


@pl.jit.incore
def row_sum_k(
    e: pl.Tensor[[256, 512], pl.FP32],
    l: pl.Out[pl.Tensor[[256, 1], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    n: pl.Scalar[pl.INDEX],
):
    # Columns >= n (past the context) count as 0 in the sum.
    t = pl.load(e, [r0, 0], [ROW_TILE, MAX_CTX], valid_shape=[ROW_TILE, n])
    masked = pl.tile.fillpad(t, pad_value=pl.PadValue.zero)
    scratch = pl.create_tile([ROW_TILE, MAX_CTX], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(masked, scratch), [r0, 0], l)
    return l


@pl.jit.incore
def div_k(
    e: pl.Tensor[[256, 512], pl.FP32],
    l: pl.Tensor[[256, 1], pl.FP32],
    probs: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    n: pl.Scalar[pl.INDEX],
):
    t = pl.load(e, [r0, 0], [ROW_TILE, MAX_CTX], valid_shape=[ROW_TILE, n])
    lt = pl.load(l, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_div(t, lt), [r0, 0], probs)
    return probs


@pl.jit.incore
def cast_p_k(
    probs: pl.Tensor[[256, 512], pl.FP32],
    p: pl.Out[pl.Tensor[[256, 512], pl.BF16]],
    r0: pl.Scalar[pl.INDEX],
    n: pl.Scalar[pl.INDEX],
    n_pad: pl.Scalar[pl.INDEX],
):
    # The PV matmul takes whole 64-key blocks: P is written up to the block boundary n_pad,
    # with zeros past the context length n.
    t = pl.load(probs, [r0, 0], [ROW_TILE, MAX_CTX], valid_shape=[ROW_TILE, n])
    padded = pl.tile.set_validshape(pl.tile.fillpad(t, pad_value=pl.PadValue.zero), ROW_TILE, n_pad)
    pl.store(pl.cast(padded, target_type=pl.BF16), [r0, 0], p)
    return p


@pl.jit.incore
def pv_k(
    p: pl.Tensor[[256, 512], pl.BF16],
    v_seq: pl.Tensor[[2048, 128], pl.BF16],
    o: pl.Out[pl.Tensor[[256, 128], pl.FP32]],
    q_row: pl.Scalar[pl.INDEX],
    v_row: pl.Scalar[pl.INDEX],
    n_blocks: pl.Scalar[pl.INDEX],
):
    p_l1 = pl.load(p, [q_row, 0], [NUM_HEADS, BLOCK_SIZE], target_memory=pl.MemorySpace.Mat)
    v_l1 = pl.load(v_seq, [v_row, 0], [BLOCK_SIZE, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    acc = pl.matmul(pl.move(p_l1, target_memory=pl.MemorySpace.Left), pl.move(v_l1, target_memory=pl.MemorySpace.Right))
    for j in pl.range(1, n_blocks):
        pj_l1 = pl.load(p, [q_row, j * BLOCK_SIZE], [NUM_HEADS, BLOCK_SIZE], target_memory=pl.MemorySpace.Mat)
        vj_l1 = pl.load(v_seq, [v_row + j * BLOCK_SIZE, 0], [BLOCK_SIZE, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul_acc(
            acc,
            pl.move(pj_l1, target_memory=pl.MemorySpace.Left),
            pl.move(vj_l1, target_memory=pl.MemorySpace.Right),
        )
    pl.store(acc, [q_row, 0], o)
    return o


@pl.jit.incore
def cast_out_k(
    o: pl.Tensor[[256, 128], pl.FP32],
    out: pl.Out[pl.Tensor[[256, 128], pl.BF16]],
    q_row: pl.Scalar[pl.INDEX],
):
    t = pl.load(o, [q_row, 0], [NUM_HEADS, HEAD_DIM])
    pl.store(pl.cast(t, target_type=pl.BF16), [q_row, 0], out)
    return out
