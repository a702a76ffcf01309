"""Orchestration of the naive port of swiglu_mlp: one kernel call per operation of the original,
every intermediate (gate, up, silu(gate), the product, h) through GM. Per block of 64 columns of
the intermediate: gate, up, silu, mul, cast (5 dispatches, 44 blocks); then per block of 64
columns of y: the down projection (16 dispatches). Tasks: 44 x 5 + 16 = 236."""
import pypto.language as pl
from incore import N_TILE, cast_k, down_k, mul_k, proj_k, silu_k

TOKENS = 128
HIDDEN = 1024
INTER = 2816


@pl.jit
def swiglu_mlp(
    x: pl.Tensor[[128, 1024], pl.BF16],
    w_gate: pl.Tensor[[2816, 1024], pl.BF16],
    w_up: pl.Tensor[[2816, 1024], pl.BF16],
    w_down: pl.Tensor[[1024, 2816], pl.BF16],
    y: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
):
    gate = pl.create_tensor([TOKENS, INTER], dtype=pl.FP32)
    up = pl.create_tensor([TOKENS, INTER], dtype=pl.FP32)
    s = pl.create_tensor([TOKENS, INTER], dtype=pl.FP32)
    p = pl.create_tensor([TOKENS, INTER], dtype=pl.FP32)
    h = pl.create_tensor([TOKENS, INTER], dtype=pl.BF16)
    for nb in pl.range(INTER // N_TILE):
        n0 = nb * N_TILE
        gate = proj_k(x, w_gate, gate, n0)
        up = proj_k(x, w_up, up, n0)
        s = silu_k(gate, s, n0)
        p = mul_k(s, up, p, n0)
        h = cast_k(p, h, n0)
    for db in pl.range(HIDDEN // N_TILE):
        d0 = db * N_TILE
        y = down_k(h, w_down, y, d0)
    return y
