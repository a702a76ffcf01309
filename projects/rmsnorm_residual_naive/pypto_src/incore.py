"""Incore functions of the naive port of rmsnorm_residual: one kernel per operation of the original
(h = float(x) + float(residual), residual_out = bf16(h), h^2, mean over hidden, + eps, rsqrt,
h * inv_rms, * weight, y = bf16(.)), each loading its operands from GM and storing its result to
GM. Every kernel handles one block of ROW_TILE = 8 tokens, as the final port's tasks do; a whole
FP32 row block ([8, 4096], 128 KiB) does not fit Vec with its temporaries, so the kernels walk the
hidden axis in HIDDEN_TILE = 1024 chunks (the final port's chunk). The per-token statistics are
[8, 1] tiles of [512, 1] FP32 tensors. The measured baseline the fused port
(projects/rmsnorm_residual) is compared with in its PORTING.md."""
import pypto.language as pl

TOKENS = 512
HIDDEN = 4096
ROW_TILE = 8
HIDDEN_TILE = 1024
EPS = 1e-6


@pl.jit.incore
def add_k(x: pl.Tensor[[512, 4096], pl.BF16], residual: pl.Tensor[[512, 4096], pl.BF16],
          h: pl.Out[pl.Tensor[[512, 4096], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    for hb in pl.range(HIDDEN // HIDDEN_TILE):
        h0 = hb * HIDDEN_TILE
        xt = pl.cast(pl.load(x, [r0, h0], [ROW_TILE, HIDDEN_TILE]), target_type=pl.FP32)
        rt = pl.cast(pl.load(residual, [r0, h0], [ROW_TILE, HIDDEN_TILE]), target_type=pl.FP32)
        pl.store(pl.add(xt, rt), [r0, h0], h)
    return h


@pl.jit.incore
def residual_out_k(h: pl.Tensor[[512, 4096], pl.FP32], residual_out: pl.Out[pl.Tensor[[512, 4096], pl.BF16]],
                   r0: pl.Scalar[pl.INDEX]):
    for hb in pl.range(HIDDEN // HIDDEN_TILE):
        h0 = hb * HIDDEN_TILE
        t = pl.load(h, [r0, h0], [ROW_TILE, HIDDEN_TILE])
        pl.store(pl.cast(t, target_type=pl.BF16, mode="rint"), [r0, h0], residual_out)
    return residual_out


@pl.jit.incore
def square_k(h: pl.Tensor[[512, 4096], pl.FP32], sq: pl.Out[pl.Tensor[[512, 4096], pl.FP32]],
             r0: pl.Scalar[pl.INDEX]):
    for hb in pl.range(HIDDEN // HIDDEN_TILE):
        h0 = hb * HIDDEN_TILE
        t = pl.load(h, [r0, h0], [ROW_TILE, HIDDEN_TILE])
        pl.store(pl.mul(t, t), [r0, h0], sq)
    return sq


@pl.jit.incore
def mean_k(sq: pl.Tensor[[512, 4096], pl.FP32], ms: pl.Out[pl.Tensor[[512, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    # The row sum of each chunk is accumulated on the [1, 8] row-major view (32 B, the smallest
    # legal Vec row); 1/H is applied to the [1, 8] sum.
    acc = pl.tile.full([1, ROW_TILE], dtype=pl.FP32, value=0.0)
    for hb in pl.range(HIDDEN // HIDDEN_TILE):
        h0 = hb * HIDDEN_TILE
        t = pl.load(sq, [r0, h0], [ROW_TILE, HIDDEN_TILE])
        scratch = pl.create_tile([ROW_TILE, HIDDEN_TILE], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        part: pl.Tile[[8, 1], pl.FP32] = pl.row_sum(t, scratch)
        acc = pl.add(acc, pl.reshape(part, [1, ROW_TILE]))
    mean: pl.Tile[[8, 1], pl.FP32] = pl.reshape(pl.mul(acc, 1.0 / HIDDEN), [ROW_TILE, 1])
    pl.store(mean, [r0, 0], ms)
    return ms


@pl.jit.incore
def add_eps_k(ms: pl.Tensor[[512, 1], pl.FP32], ms_eps: pl.Out[pl.Tensor[[512, 1], pl.FP32]],
              r0: pl.Scalar[pl.INDEX]):
    t = pl.load(ms, [r0, 0], [ROW_TILE, 1])
    out: pl.Tile[[8, 1], pl.FP32] = pl.reshape(pl.add(pl.reshape(t, [1, ROW_TILE]), EPS), [ROW_TILE, 1])
    pl.store(out, [r0, 0], ms_eps)
    return ms_eps


@pl.jit.incore
def rsqrt_k(ms_eps: pl.Tensor[[512, 1], pl.FP32], inv_rms: pl.Out[pl.Tensor[[512, 1], pl.FP32]],
            r0: pl.Scalar[pl.INDEX]):
    t = pl.load(ms_eps, [r0, 0], [ROW_TILE, 1])
    out: pl.Tile[[8, 1], pl.FP32] = pl.reshape(pl.rsqrt(pl.reshape(t, [1, ROW_TILE])), [ROW_TILE, 1])
    pl.store(out, [r0, 0], inv_rms)
    return inv_rms


@pl.jit.incore
def scale_k(h: pl.Tensor[[512, 4096], pl.FP32], inv_rms: pl.Tensor[[512, 1], pl.FP32],
            hn: pl.Out[pl.Tensor[[512, 4096], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    it = pl.load(inv_rms, [r0, 0], [ROW_TILE, 1])
    for hb in pl.range(HIDDEN // HIDDEN_TILE):
        h0 = hb * HIDDEN_TILE
        t = pl.load(h, [r0, h0], [ROW_TILE, HIDDEN_TILE])
        pl.store(pl.row_expand_mul(t, it), [r0, h0], hn)
    return hn


@pl.jit.incore
def weight_k(hn: pl.Tensor[[512, 4096], pl.FP32], weight: pl.Tensor[[1, 4096], pl.BF16],
             hw: pl.Out[pl.Tensor[[512, 4096], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    for hb in pl.range(HIDDEN // HIDDEN_TILE):
        h0 = hb * HIDDEN_TILE
        t = pl.load(hn, [r0, h0], [ROW_TILE, HIDDEN_TILE])
        w = pl.cast(pl.load(weight, [0, h0], [1, HIDDEN_TILE]), target_type=pl.FP32)
        pl.store(pl.col_expand_mul(t, w), [r0, h0], hw)
    return hw


@pl.jit.incore
def cast_y_k(hw: pl.Tensor[[512, 4096], pl.FP32], y: pl.Out[pl.Tensor[[512, 4096], pl.BF16]],
             r0: pl.Scalar[pl.INDEX]):
    for hb in pl.range(HIDDEN // HIDDEN_TILE):
        h0 = hb * HIDDEN_TILE
        t = pl.load(hw, [r0, h0], [ROW_TILE, HIDDEN_TILE])
        pl.store(pl.cast(t, target_type=pl.BF16, mode="rint"), [r0, h0], y)
    return y
