"""Incore functions of the naive port of swiglu_mlp: one kernel per operation of the original
(projects/swiglu_mlp/original/swiglu_mlp.py), each loading its operands from GM and storing its
result to GM:

  proj_k       AIC  gate = x @ w_gate^T, then up = x @ w_up^T (the same function, two calls):
                    one task per 64 columns, all 128 tokens, K loop of 256, FP32 out of Acc
  silu_k       AIV  s = silu(gate) = gate * 1 / (1 + exp(-gate))             FP32 -> FP32
  mul_k        AIV  p = s * up                                                FP32 -> FP32
  cast_k       AIV  h = bf16(p) (round to nearest even)                       FP32 -> BF16
  down_k       AIC  y = h @ w_down^T: one task per 64 columns, K loop of 256, FP32 out of Acc

The vector kernels work on the matmuls' [128, 64] column blocks (FP32, 32 KiB a tile). Every
kernel gets whole tensors and scalar offsets and stores at the offset (a pl.slice of an output
made outside the kernel would reach it with the dense strides of its own shape: attempt 10 of
projects/swiglu_mlp/PORTING.md). The measured baseline the fused port is compared with.
"""
import pypto.language as pl

TOKENS = 128
HIDDEN = 1024
INTER = 2816
N_TILE = 64       # output columns per matmul task (as the port)
K_TILE = 256      # contraction chunk of the K loops (as the port)


@pl.jit.incore
def proj_k(
    x: pl.Tensor[[128, 1024], pl.BF16],
    w: pl.Tensor[[2816, 1024], pl.BF16],
    out: pl.Out[pl.Tensor[[128, 2816], pl.FP32]],
    n0: pl.Scalar[pl.INDEX],
):
    acc = pl.create_tile([TOKENS, N_TILE], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
    for kb in pl.range(HIDDEN // K_TILE):
        k0 = kb * K_TILE
        a_l1 = pl.load(x, [0, k0], [TOKENS, K_TILE], target_memory=pl.MemorySpace.Mat)
        w_l1 = pl.load(w, [n0, k0], [N_TILE, K_TILE], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(pl.tile.transpose_view(w_l1), target_memory=pl.MemorySpace.Right)
        if kb == 0:
            acc = pl.matmul(a_l0, w_l0)
        else:
            acc = pl.matmul_acc(acc, a_l0, w_l0)
    pl.store(acc, [0, n0], out)
    return out


@pl.jit.incore
def silu_k(
    gate: pl.Tensor[[128, 2816], pl.FP32],
    s: pl.Out[pl.Tensor[[128, 2816], pl.FP32]],
    n0: pl.Scalar[pl.INDEX],
):
    g = pl.load(gate, [0, n0], [TOKENS, N_TILE])
    sigmoid = pl.recip(pl.add(pl.exp(pl.neg(g)), 1.0), high_precision=True)
    pl.store(pl.mul(g, sigmoid), [0, n0], s)
    return s


@pl.jit.incore
def mul_k(
    s: pl.Tensor[[128, 2816], pl.FP32],
    up: pl.Tensor[[128, 2816], pl.FP32],
    p: pl.Out[pl.Tensor[[128, 2816], pl.FP32]],
    n0: pl.Scalar[pl.INDEX],
):
    st = pl.load(s, [0, n0], [TOKENS, N_TILE])
    ut = pl.load(up, [0, n0], [TOKENS, N_TILE])
    pl.store(pl.mul(st, ut), [0, n0], p)
    return p


@pl.jit.incore
def cast_k(
    p: pl.Tensor[[128, 2816], pl.FP32],
    h: pl.Out[pl.Tensor[[128, 2816], pl.BF16]],
    n0: pl.Scalar[pl.INDEX],
):
    t = pl.load(p, [0, n0], [TOKENS, N_TILE])
    pl.store(pl.cast(t, target_type=pl.BF16, mode="rint"), [0, n0], h)
    return h


@pl.jit.incore
def down_k(
    h: pl.Tensor[[128, 2816], pl.BF16],
    w_down: pl.Tensor[[1024, 2816], pl.BF16],
    y: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
    d0: pl.Scalar[pl.INDEX],
):
    acc = pl.create_tile([TOKENS, N_TILE], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
    for kb in pl.range(INTER // K_TILE):
        k0 = kb * K_TILE
        a_l1 = pl.load(h, [0, k0], [TOKENS, K_TILE], target_memory=pl.MemorySpace.Mat)
        w_l1 = pl.load(w_down, [d0, k0], [N_TILE, K_TILE], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(pl.tile.transpose_view(w_l1), target_memory=pl.MemorySpace.Right)
        if kb == 0:
            acc = pl.matmul(a_l0, w_l0)
        else:
            acc = pl.matmul_acc(acc, a_l0, w_l0)
    pl.store(acc, [0, d0], y)
    return y
