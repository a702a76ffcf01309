"""Incore functions of the naive form of linear_gelu: one kernel per operation of the original
(matmul, bias, cube, inner polynomial, tanh, product), every intermediate through GM:

  proj_k   AIC  h0 = x @ weight^T: one task per 64 output columns, K loop of 256, FP32 out of Acc
  bias_k   AIV  h = h0 + bias                                   (column broadcast)
  cube_k   AIV  c = h * h * h
  inner_k  AIV  u = sqrt(2 / pi) * (h + 0.044715 * c)
  tanh_k   AIV  t = tanh(u) = 1 - 2 / (1 + exp(2u))
  gelu_k   AIV  out = 0.5 * h * (1 + t)
The speed baseline the scorer compares attempts with."""
import math

import pypto.language as pl

TOKENS = 128
IN_FEATURES = 512
OUT_FEATURES = 1024
N_TILE = 64
K_TILE = 256
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@pl.jit.incore
def proj_k(x: pl.Tensor[[128, 512], pl.BF16], weight: pl.Tensor[[1024, 512], pl.BF16],
           h0: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], n0: pl.Scalar[pl.INDEX]):
    acc = pl.create_tile([TOKENS, N_TILE], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
    for kb in pl.range(IN_FEATURES // K_TILE):
        k0 = kb * K_TILE
        a_l1 = pl.load(x, [0, k0], [TOKENS, K_TILE], target_memory=pl.MemorySpace.Mat)
        w_l1 = pl.load(weight, [n0, k0], [N_TILE, K_TILE], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(pl.tile.transpose_view(w_l1), target_memory=pl.MemorySpace.Right)
        if kb == 0:
            acc = pl.matmul(a_l0, w_l0)
        else:
            acc = pl.matmul_acc(acc, a_l0, w_l0)
    pl.store(acc, [0, n0], h0)
    return h0


@pl.jit.incore
def bias_k(h0: pl.Tensor[[128, 1024], pl.FP32], bias: pl.Tensor[[1, 1024], pl.FP32],
           h: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], n0: pl.Scalar[pl.INDEX]):
    t = pl.load(h0, [0, n0], [TOKENS, N_TILE])
    b = pl.load(bias, [0, n0], [1, N_TILE])
    pl.store(pl.col_expand_add(t, b), [0, n0], h)
    return h


@pl.jit.incore
def cube_k(h: pl.Tensor[[128, 1024], pl.FP32], c: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], n0: pl.Scalar[pl.INDEX]):
    t = pl.load(h, [0, n0], [TOKENS, N_TILE])
    pl.store(pl.mul(pl.mul(t, t), t), [0, n0], c)
    return c


@pl.jit.incore
def inner_k(h: pl.Tensor[[128, 1024], pl.FP32], c: pl.Tensor[[128, 1024], pl.FP32],
            u: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], n0: pl.Scalar[pl.INDEX]):
    ht = pl.load(h, [0, n0], [TOKENS, N_TILE])
    ct = pl.load(c, [0, n0], [TOKENS, N_TILE])
    pl.store(pl.mul(pl.add(ht, pl.mul(ct, 0.044715)), SQRT_2_OVER_PI), [0, n0], u)
    return u


@pl.jit.incore
def tanh_k(u: pl.Tensor[[128, 1024], pl.FP32], t: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], n0: pl.Scalar[pl.INDEX]):
    ut = pl.load(u, [0, n0], [TOKENS, N_TILE])
    twos = pl.tile.full([TOKENS, N_TILE], dtype=pl.FP32, value=2.0)
    frac = pl.div(twos, pl.add(pl.exp(pl.mul(ut, 2.0)), 1.0))
    pl.store(pl.sub(pl.tile.full([TOKENS, N_TILE], dtype=pl.FP32, value=1.0), frac), [0, n0], t)
    return t


@pl.jit.incore
def gelu_k(h: pl.Tensor[[128, 1024], pl.FP32], t: pl.Tensor[[128, 1024], pl.FP32],
           out: pl.Out[pl.Tensor[[128, 1024], pl.FP32]], n0: pl.Scalar[pl.INDEX]):
    ht = pl.load(h, [0, n0], [TOKENS, N_TILE])
    tt = pl.load(t, [0, n0], [TOKENS, N_TILE])
    pl.store(pl.mul(pl.mul(ht, 0.5), pl.add(tt, 1.0)), [0, n0], out)
    return out
