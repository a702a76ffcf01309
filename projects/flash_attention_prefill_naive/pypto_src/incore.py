"""Incore functions of the naive port of flash_attention_prefill: one kernel per operation of the
original (QK^T, scale, causal mask add, row max, subtract, exp, row sum, divide, cast P, PV, cast
out), each over full 512-key score rows, loading its operands from GM and storing its result to
GM. The measured baseline the port (projects/flash_attention_prefill) is compared with in its
PORTING.md.

Tiling, only as much as each kernel needs (a [64, 512] FP32 row block is 128 KiB):
  qk_k         AIC, [32, 128] queries x the head's 512 keys, 4 chunks of 128 keys -> [32, 512] S
  scale_k, sub_k, exp_k, div_k, cast_p_k
               AIV, [32, 512] FP32 row tiles (64 KiB)
  mask_k, row_max_k, row_sum_k
               AIV, [16, 512] row tiles: each holds a second [.., 512] FP32 tile (the generated
               mask, the reduction scratch); at 32 rows they would use 68 % of a2a3 Vec
  pv_k         AIC, [32, 512] P x the head's [512, 128] V, 4 K steps of 128 accumulated in Acc
  cast_out_k   AIV, [32, 128] FP32 -> BF16
Every kernel gets whole tensors plus scalar offsets and stores at the offset.
"""
import pypto.language as pl

SEQ = 512
HEAD_DIM = 128
ROW_TILE = 32
RED_TILE = 16
K_CHUNK = 128
ATTN_SCALE = 0.08838834764831845
MASKED = 1.0e30


@pl.jit.incore
def qk_k(
    q: pl.Tensor[[1024, 128], pl.BF16],
    k: pl.Tensor[[1024, 128], pl.BF16],
    s: pl.Out[pl.Tensor[[1024, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    kv0: pl.Scalar[pl.INDEX],
):
    q_l1 = pl.load(q, [r0, 0], [ROW_TILE, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    q_l0 = pl.move(q_l1, target_memory=pl.MemorySpace.Left)
    for c in pl.range(SEQ // K_CHUNK):
        k_l1 = pl.load(k, [kv0 + c * K_CHUNK, 0], [K_CHUNK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
        kt_l0 = pl.move(pl.tile.transpose_view(k_l1), target_memory=pl.MemorySpace.Right)
        pl.store(pl.matmul(q_l0, kt_l0), [r0, c * K_CHUNK], s)
    return s


@pl.jit.incore
def scale_k(
    s: pl.Tensor[[1024, 512], pl.FP32],
    scale: pl.Scalar[pl.FP32],
    s_scaled: pl.Out[pl.Tensor[[1024, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
):
    t = pl.load(s, [r0, 0], [ROW_TILE, SEQ])
    pl.store(pl.mul(t, scale), [r0, 0], s_scaled)
    return s_scaled


@pl.jit.incore
def mask_k(
    s_scaled: pl.Tensor[[1024, 512], pl.FP32],
    s_masked: pl.Out[pl.Tensor[[1024, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    qi0: pl.Scalar[pl.INDEX],
):
    # The original's masked_fill(triu(ones, 1), -inf) as an additive mask made on chip: tri is 1
    # where key j <= query qi0 + i, so (tri - 1) * 1e30 is 0 there and -1e30 above the diagonal.
    t = pl.load(s_scaled, [r0, 0], [RED_TILE, SEQ])
    keep = pl.tile.tri(pl.cast(qi0, pl.INT32), [RED_TILE, SEQ], dtype=pl.FP32)
    bias = pl.mul(pl.add(keep, -1.0), MASKED)
    pl.store(pl.add(t, bias), [r0, 0], s_masked)
    return s_masked


@pl.jit.incore
def row_max_k(
    s_masked: pl.Tensor[[1024, 512], pl.FP32],
    m: pl.Out[pl.Tensor[[1024, 1], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
):
    t = pl.load(s_masked, [r0, 0], [RED_TILE, SEQ])
    scratch = pl.create_tile([RED_TILE, SEQ], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(t, scratch), [r0, 0], m)
    return m


@pl.jit.incore
def sub_k(
    s_masked: pl.Tensor[[1024, 512], pl.FP32],
    m: pl.Tensor[[1024, 1], pl.FP32],
    shifted: pl.Out[pl.Tensor[[1024, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
):
    t = pl.load(s_masked, [r0, 0], [ROW_TILE, SEQ])
    mt = pl.load(m, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_sub(t, mt), [r0, 0], shifted)
    return shifted


@pl.jit.incore
def exp_k(
    shifted: pl.Tensor[[1024, 512], pl.FP32],
    e: pl.Out[pl.Tensor[[1024, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
):
    t = pl.load(shifted, [r0, 0], [ROW_TILE, SEQ])
    pl.store(pl.exp(t), [r0, 0], e)
    return e


@pl.jit.incore
def row_sum_k(
    e: pl.Tensor[[1024, 512], pl.FP32],
    l: pl.Out[pl.Tensor[[1024, 1], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
):
    t = pl.load(e, [r0, 0], [RED_TILE, SEQ])
    scratch = pl.create_tile([RED_TILE, SEQ], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(t, scratch), [r0, 0], l)
    return l


@pl.jit.incore
def div_k(
    e: pl.Tensor[[1024, 512], pl.FP32],
    l: pl.Tensor[[1024, 1], pl.FP32],
    probs: pl.Out[pl.Tensor[[1024, 512], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
):
    t = pl.load(e, [r0, 0], [ROW_TILE, SEQ])
    lt = pl.load(l, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_div(t, lt), [r0, 0], probs)
    return probs


@pl.jit.incore
def cast_p_k(
    probs: pl.Tensor[[1024, 512], pl.FP32],
    p: pl.Out[pl.Tensor[[1024, 512], pl.BF16]],
    r0: pl.Scalar[pl.INDEX],
):
    t = pl.load(probs, [r0, 0], [ROW_TILE, SEQ])
    pl.store(pl.cast(t, target_type=pl.BF16), [r0, 0], p)
    return p


@pl.jit.incore
def pv_k(
    p: pl.Tensor[[1024, 512], pl.BF16],
    v: pl.Tensor[[1024, 128], pl.BF16],
    o: pl.Out[pl.Tensor[[1024, 128], pl.FP32]],
    r0: pl.Scalar[pl.INDEX],
    kv0: pl.Scalar[pl.INDEX],
):
    p_l1 = pl.load(p, [r0, 0], [ROW_TILE, K_CHUNK], target_memory=pl.MemorySpace.Mat)
    v_l1 = pl.load(v, [kv0, 0], [K_CHUNK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    acc = pl.matmul(pl.move(p_l1, target_memory=pl.MemorySpace.Left), pl.move(v_l1, target_memory=pl.MemorySpace.Right))
    for c in pl.range(1, SEQ // K_CHUNK):
        pc_l1 = pl.load(p, [r0, c * K_CHUNK], [ROW_TILE, K_CHUNK], target_memory=pl.MemorySpace.Mat)
        vc_l1 = pl.load(v, [kv0 + c * K_CHUNK, 0], [K_CHUNK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul_acc(
            acc,
            pl.move(pc_l1, target_memory=pl.MemorySpace.Left),
            pl.move(vc_l1, target_memory=pl.MemorySpace.Right),
        )
    pl.store(acc, [r0, 0], o)
    return o


@pl.jit.incore
def cast_out_k(
    o: pl.Tensor[[1024, 128], pl.FP32],
    out: pl.Out[pl.Tensor[[1024, 128], pl.BF16]],
    r0: pl.Scalar[pl.INDEX],
):
    t = pl.load(o, [r0, 0], [ROW_TILE, HEAD_DIM])
    pl.store(pl.cast(t, target_type=pl.BF16), [r0, 0], out)
    return out
