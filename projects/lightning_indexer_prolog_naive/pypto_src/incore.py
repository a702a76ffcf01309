"""Incore functions of the naive port of lightning_indexer_prolog: one kernel per operation of the
original (projects/lightning_indexer_prolog/original/lightning_indexer_prolog.py), per path (12 for
q, 12 for k), each loading its operands from GM and storing its result to GM:

  *_proj_k       AIC  r = a @ w (qr @ wq_b head columns, x @ wk), K loop of 128, FP32 out of Acc
  *_cast_bf16_k  AIV  r_bf = bf16(r) (round to nearest even)
  *_hadamard_k   AIC  rot = r_bf @ H, FP32 out of Acc
  *_abs_k        AIV  a = |rot|
  *_row_max_k    AIV  rmax = max over the 128 channels of a row, stored as a [1, 64] row
  *_max_eps_k    AIV  amax = max(rmax, 1e-6)
  *_div_k        AIV  inv = 127 / amax
  *_row_mul_k    AIV  scaled = rot * inv (row broadcast)
  *_cast_i32_k   AIV  i32 = int32(scaled), rint (round half to even)
  *_cast_f16_k   AIV  f16 = fp16(i32) (exact for |v| <= 127)
  *_cast_i8_k    AIV  out_int8 = int8(f16), trunc (exact)
  *_scale_k      AIV  out_scale = amax * (1 / 127)

Every kernel works on one [64, 128] block (64 tokens x one head's 128 channels, as the port) and
its [1, 64] row of per-row statistics, head-major like the scale outputs ([8, 128] for q, [1, 128]
for k). The q and k versions differ only in their tensors' shapes (PyPTO fixes them in the
signature), hence 24 functions. Every kernel gets whole tensors and scalar offsets and stores at
the offset (no pl.slice of an output made outside the kernel: projects/lightning_indexer_prolog/
PORTING.md, attempt 7). The measured baseline the port is compared with.
"""
import pypto.language as pl

TOKEN_TILE = 64
INDEX_DIM = 128
K_TILE = 128
Q_LORA = 512
HIDDEN = 1024
INT8_MAX = 127.0
AMAX_EPS = 1.0e-6


# ---------------------------------------------------------------------------------------------
# q path: tensors [128, 1024] (8 heads x 128 channels per token), statistics [8, 128] (head, token)
# ---------------------------------------------------------------------------------------------

@pl.jit.incore
def q_proj_k(
    qr: pl.Tensor[[128, 512], pl.BF16],
    wq_b: pl.Tensor[[512, 1024], pl.BF16],
    r: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    acc = pl.create_tile([TOKEN_TILE, INDEX_DIM], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
    for kb in pl.range(Q_LORA // K_TILE):
        k0 = kb * K_TILE
        a_l1 = pl.load(qr, [t0, k0], [TOKEN_TILE, K_TILE], target_memory=pl.MemorySpace.Mat)
        w_l1 = pl.load(wq_b, [k0, col0], [K_TILE, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(w_l1, target_memory=pl.MemorySpace.Right)
        if kb == 0:
            acc = pl.matmul(a_l0, w_l0)
        else:
            acc = pl.matmul_acc(acc, a_l0, w_l0)
    pl.store(acc, [t0, col0], r)
    return r


@pl.jit.incore
def q_cast_bf16_k(
    r: pl.Tensor[[128, 1024], pl.FP32],
    r_bf: pl.Out[pl.Tensor[[128, 1024], pl.BF16]],
    t0: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    t = pl.load(r, [t0, col0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.cast(t, target_type=pl.BF16, mode="rint"), [t0, col0], r_bf)
    return r_bf


@pl.jit.incore
def q_hadamard_k(
    r_bf: pl.Tensor[[128, 1024], pl.BF16],
    hadamard: pl.Tensor[[128, 128], pl.BF16],
    rot: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    r_l1 = pl.load(r_bf, [t0, col0], [TOKEN_TILE, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
    had_l1 = pl.load(hadamard, [0, 0], [INDEX_DIM, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
    r_l0 = pl.move(r_l1, target_memory=pl.MemorySpace.Left)
    had_l0 = pl.move(had_l1, target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(r_l0, had_l0), [t0, col0], rot)
    return rot


@pl.jit.incore
def q_abs_k(
    rot: pl.Tensor[[128, 1024], pl.FP32],
    a: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    t = pl.load(rot, [t0, col0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.abs(t), [t0, col0], a)
    return a


@pl.jit.incore
def q_row_max_k(
    a: pl.Tensor[[128, 1024], pl.FP32],
    rmax: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
    hd: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    t = pl.load(a, [t0, col0], [TOKEN_TILE, INDEX_DIM])
    scratch = pl.create_tile([TOKEN_TILE, INDEX_DIM], dtype=pl.FP32,
                             target_memory=pl.MemorySpace.Vec)
    m = pl.row_max(t, scratch)
    pl.store(pl.reshape(m, [1, TOKEN_TILE]), [hd, t0], rmax)
    return rmax


@pl.jit.incore
def q_max_eps_k(
    rmax: pl.Tensor[[8, 128], pl.FP32],
    amax: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
    hd: pl.Scalar[pl.INDEX],
):
    m = pl.load(rmax, [hd, t0], [1, TOKEN_TILE])
    pl.store(pl.maximum(m, AMAX_EPS), [hd, t0], amax)
    return amax


@pl.jit.incore
def q_div_k(
    amax: pl.Tensor[[8, 128], pl.FP32],
    inv: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
    hd: pl.Scalar[pl.INDEX],
):
    m = pl.load(amax, [hd, t0], [1, TOKEN_TILE])
    limit = pl.tile.full([1, TOKEN_TILE], dtype=pl.FP32, value=INT8_MAX)
    pl.store(pl.div(limit, m), [hd, t0], inv)
    return inv


@pl.jit.incore
def q_row_mul_k(
    rot: pl.Tensor[[128, 1024], pl.FP32],
    inv: pl.Tensor[[8, 128], pl.FP32],
    scaled: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
    hd: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    t = pl.load(rot, [t0, col0], [TOKEN_TILE, INDEX_DIM])
    s = pl.load(inv, [hd, t0], [1, TOKEN_TILE])
    pl.store(pl.row_expand_mul(t, pl.reshape(s, [TOKEN_TILE, 1])), [t0, col0], scaled)
    return scaled


@pl.jit.incore
def q_cast_i32_k(
    scaled: pl.Tensor[[128, 1024], pl.FP32],
    i32: pl.Out[pl.Tensor[[128, 1024], pl.INT32]],
    t0: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    t = pl.load(scaled, [t0, col0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.cast(t, target_type=pl.INT32, mode="rint"), [t0, col0], i32)
    return i32


@pl.jit.incore
def q_cast_f16_k(
    i32: pl.Tensor[[128, 1024], pl.INT32],
    f16: pl.Out[pl.Tensor[[128, 1024], pl.FP16]],
    t0: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    t = pl.load(i32, [t0, col0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.cast(t, target_type=pl.FP16, mode="round"), [t0, col0], f16)
    return f16


@pl.jit.incore
def q_cast_i8_k(
    f16: pl.Tensor[[128, 1024], pl.FP16],
    q_int8: pl.Out[pl.Tensor[[128, 1024], pl.INT8]],
    t0: pl.Scalar[pl.INDEX],
    col0: pl.Scalar[pl.INDEX],
):
    t = pl.load(f16, [t0, col0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.cast(t, target_type=pl.INT8, mode="trunc"), [t0, col0], q_int8)
    return q_int8


@pl.jit.incore
def q_scale_k(
    amax: pl.Tensor[[8, 128], pl.FP32],
    q_scale: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
    hd: pl.Scalar[pl.INDEX],
):
    m = pl.load(amax, [hd, t0], [1, TOKEN_TILE])
    pl.store(pl.mul(m, 1.0 / INT8_MAX), [hd, t0], q_scale)
    return q_scale


# ---------------------------------------------------------------------------------------------
# k path: tensors [128, 128] (one index head), statistics [1, 128]
# ---------------------------------------------------------------------------------------------

@pl.jit.incore
def k_proj_k(
    x: pl.Tensor[[128, 1024], pl.BF16],
    wk: pl.Tensor[[1024, 128], pl.BF16],
    r: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
):
    acc = pl.create_tile([TOKEN_TILE, INDEX_DIM], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
    for kb in pl.range(HIDDEN // K_TILE):
        k0 = kb * K_TILE
        a_l1 = pl.load(x, [t0, k0], [TOKEN_TILE, K_TILE], target_memory=pl.MemorySpace.Mat)
        w_l1 = pl.load(wk, [k0, 0], [K_TILE, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(w_l1, target_memory=pl.MemorySpace.Right)
        if kb == 0:
            acc = pl.matmul(a_l0, w_l0)
        else:
            acc = pl.matmul_acc(acc, a_l0, w_l0)
    pl.store(acc, [t0, 0], r)
    return r


@pl.jit.incore
def k_cast_bf16_k(
    r: pl.Tensor[[128, 128], pl.FP32],
    r_bf: pl.Out[pl.Tensor[[128, 128], pl.BF16]],
    t0: pl.Scalar[pl.INDEX],
):
    t = pl.load(r, [t0, 0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.cast(t, target_type=pl.BF16, mode="rint"), [t0, 0], r_bf)
    return r_bf


@pl.jit.incore
def k_hadamard_k(
    r_bf: pl.Tensor[[128, 128], pl.BF16],
    hadamard: pl.Tensor[[128, 128], pl.BF16],
    rot: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
):
    r_l1 = pl.load(r_bf, [t0, 0], [TOKEN_TILE, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
    had_l1 = pl.load(hadamard, [0, 0], [INDEX_DIM, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
    r_l0 = pl.move(r_l1, target_memory=pl.MemorySpace.Left)
    had_l0 = pl.move(had_l1, target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(r_l0, had_l0), [t0, 0], rot)
    return rot


@pl.jit.incore
def k_abs_k(
    rot: pl.Tensor[[128, 128], pl.FP32],
    a: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
):
    t = pl.load(rot, [t0, 0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.abs(t), [t0, 0], a)
    return a


@pl.jit.incore
def k_row_max_k(
    a: pl.Tensor[[128, 128], pl.FP32],
    rmax: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
):
    t = pl.load(a, [t0, 0], [TOKEN_TILE, INDEX_DIM])
    scratch = pl.create_tile([TOKEN_TILE, INDEX_DIM], dtype=pl.FP32,
                             target_memory=pl.MemorySpace.Vec)
    m = pl.row_max(t, scratch)
    pl.store(pl.reshape(m, [1, TOKEN_TILE]), [0, t0], rmax)
    return rmax


@pl.jit.incore
def k_max_eps_k(
    rmax: pl.Tensor[[1, 128], pl.FP32],
    amax: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
):
    m = pl.load(rmax, [0, t0], [1, TOKEN_TILE])
    pl.store(pl.maximum(m, AMAX_EPS), [0, t0], amax)
    return amax


@pl.jit.incore
def k_div_k(
    amax: pl.Tensor[[1, 128], pl.FP32],
    inv: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
):
    m = pl.load(amax, [0, t0], [1, TOKEN_TILE])
    limit = pl.tile.full([1, TOKEN_TILE], dtype=pl.FP32, value=INT8_MAX)
    pl.store(pl.div(limit, m), [0, t0], inv)
    return inv


@pl.jit.incore
def k_row_mul_k(
    rot: pl.Tensor[[128, 128], pl.FP32],
    inv: pl.Tensor[[1, 128], pl.FP32],
    scaled: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
):
    t = pl.load(rot, [t0, 0], [TOKEN_TILE, INDEX_DIM])
    s = pl.load(inv, [0, t0], [1, TOKEN_TILE])
    pl.store(pl.row_expand_mul(t, pl.reshape(s, [TOKEN_TILE, 1])), [t0, 0], scaled)
    return scaled


@pl.jit.incore
def k_cast_i32_k(
    scaled: pl.Tensor[[128, 128], pl.FP32],
    i32: pl.Out[pl.Tensor[[128, 128], pl.INT32]],
    t0: pl.Scalar[pl.INDEX],
):
    t = pl.load(scaled, [t0, 0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.cast(t, target_type=pl.INT32, mode="rint"), [t0, 0], i32)
    return i32


@pl.jit.incore
def k_cast_f16_k(
    i32: pl.Tensor[[128, 128], pl.INT32],
    f16: pl.Out[pl.Tensor[[128, 128], pl.FP16]],
    t0: pl.Scalar[pl.INDEX],
):
    t = pl.load(i32, [t0, 0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.cast(t, target_type=pl.FP16, mode="round"), [t0, 0], f16)
    return f16


@pl.jit.incore
def k_cast_i8_k(
    f16: pl.Tensor[[128, 128], pl.FP16],
    k_int8: pl.Out[pl.Tensor[[128, 128], pl.INT8]],
    t0: pl.Scalar[pl.INDEX],
):
    t = pl.load(f16, [t0, 0], [TOKEN_TILE, INDEX_DIM])
    pl.store(pl.cast(t, target_type=pl.INT8, mode="trunc"), [t0, 0], k_int8)
    return k_int8


@pl.jit.incore
def k_scale_k(
    amax: pl.Tensor[[1, 128], pl.FP32],
    k_scale: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    t0: pl.Scalar[pl.INDEX],
):
    m = pl.load(amax, [0, t0], [1, TOKEN_TILE])
    pl.store(pl.mul(m, 1.0 / INT8_MAX), [0, t0], k_scale)
    return k_scale
