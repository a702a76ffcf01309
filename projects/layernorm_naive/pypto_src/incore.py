"""Incore functions of the naive port of layernorm: one kernel per operation of the original
(mean, subtract the mean, square, mean of the squares, + eps, sqrt, divide, * gamma, + beta), each
loading its operands from GM and storing its result to GM. Every kernel works on the same block
of ROW_TILE = 8 full rows of 768 FP32 (24 KiB per tile) as the final port; the per-row statistics
are [8, 1] tiles of [1024, 1] tensors. The measured baseline the fused port (projects/layernorm)
is compared with in its PORTING.md."""
import pypto.language as pl

ROWS = 1024
HIDDEN = 768
ROW_TILE = 8
EPS = 1e-5


@pl.jit.incore
def mean_k(x: pl.Tensor[[1024, 768], pl.FP32], mean: pl.Out[pl.Tensor[[1024, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [r0, 0], [ROW_TILE, HIDDEN])
    scratch = pl.create_tile([ROW_TILE, HIDDEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    # mean = sum(x / H): the 1/H is applied before the row sum so no scalar op runs on the
    # [8, 1] column tile (as in the final port).
    pl.store(pl.row_sum(pl.mul(t, 1.0 / HIDDEN), scratch), [r0, 0], mean)
    return mean


@pl.jit.incore
def center_k(x: pl.Tensor[[1024, 768], pl.FP32], mean: pl.Tensor[[1024, 1], pl.FP32],
             centered: pl.Out[pl.Tensor[[1024, 768], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [r0, 0], [ROW_TILE, HIDDEN])
    mt = pl.load(mean, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_sub(t, mt), [r0, 0], centered)
    return centered


@pl.jit.incore
def square_k(centered: pl.Tensor[[1024, 768], pl.FP32], sq: pl.Out[pl.Tensor[[1024, 768], pl.FP32]],
             r0: pl.Scalar[pl.INDEX]):
    t = pl.load(centered, [r0, 0], [ROW_TILE, HIDDEN])
    pl.store(pl.mul(t, t), [r0, 0], sq)
    return sq


@pl.jit.incore
def var_k(sq: pl.Tensor[[1024, 768], pl.FP32], var: pl.Out[pl.Tensor[[1024, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(sq, [r0, 0], [ROW_TILE, HIDDEN])
    scratch = pl.create_tile([ROW_TILE, HIDDEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(pl.mul(t, 1.0 / HIDDEN), scratch), [r0, 0], var)
    return var


@pl.jit.incore
def add_eps_k(var: pl.Tensor[[1024, 1], pl.FP32], var_eps: pl.Out[pl.Tensor[[1024, 1], pl.FP32]],
              r0: pl.Scalar[pl.INDEX]):
    t = pl.load(var, [r0, 0], [ROW_TILE, 1])
    # The elementwise op runs on the [1, 8] row-major view (32 B, the smallest legal Vec row).
    t_row = pl.reshape(t, [1, ROW_TILE])
    out: pl.Tile[[8, 1], pl.FP32] = pl.reshape(pl.add(t_row, EPS), [ROW_TILE, 1])
    pl.store(out, [r0, 0], var_eps)
    return var_eps


@pl.jit.incore
def sqrt_k(var_eps: pl.Tensor[[1024, 1], pl.FP32], std: pl.Out[pl.Tensor[[1024, 1], pl.FP32]],
           r0: pl.Scalar[pl.INDEX]):
    t = pl.load(var_eps, [r0, 0], [ROW_TILE, 1])
    t_row = pl.reshape(t, [1, ROW_TILE])
    out: pl.Tile[[8, 1], pl.FP32] = pl.reshape(pl.sqrt(t_row), [ROW_TILE, 1])
    pl.store(out, [r0, 0], std)
    return std


@pl.jit.incore
def div_k(centered: pl.Tensor[[1024, 768], pl.FP32], std: pl.Tensor[[1024, 1], pl.FP32],
          normed: pl.Out[pl.Tensor[[1024, 768], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(centered, [r0, 0], [ROW_TILE, HIDDEN])
    st = pl.load(std, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_div(t, st), [r0, 0], normed)
    return normed


@pl.jit.incore
def gamma_k(normed: pl.Tensor[[1024, 768], pl.FP32], gamma: pl.Tensor[[1, 768], pl.FP32],
            scaled: pl.Out[pl.Tensor[[1024, 768], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(normed, [r0, 0], [ROW_TILE, HIDDEN])
    g = pl.load(gamma, [0, 0], [1, HIDDEN])
    pl.store(pl.col_expand_mul(t, g), [r0, 0], scaled)
    return scaled


@pl.jit.incore
def beta_k(scaled: pl.Tensor[[1024, 768], pl.FP32], beta: pl.Tensor[[1, 768], pl.FP32],
           y: pl.Out[pl.Tensor[[1024, 768], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(scaled, [r0, 0], [ROW_TILE, HIDDEN])
    b = pl.load(beta, [0, 0], [1, HIDDEN])
    pl.store(pl.col_expand_add(t, b), [r0, 0], y)
    return y
