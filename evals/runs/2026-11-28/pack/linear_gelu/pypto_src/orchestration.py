"""Orchestration of the port linear_gelu: the @pl.jit entry the golden runs.

One SPMD launch of (TOKENS / M_TILE) x (OUT_FEATURES / N_TILE) blocks of one mixed cube + vector
kernel (incore.py has the plan), each block writing its own tile of out; no GM intermediate.
"""
import pypto.language as pl
from incore import GELU_C, IN_FEATURES, K_TILE, M_TILE, N_TILE, OUT_FEATURES, SQRT_2_OVER_PI, STAGES, TOKENS

N_BLOCKS = OUT_FEATURES // N_TILE
NEG_2K = -2.0 * SQRT_2_OVER_PI


@pl.jit
def linear_gelu(
    x: pl.Tensor[[128, 512], pl.BF16],
    weight: pl.Tensor[[1024, 512], pl.BF16],
    bias: pl.Tensor[[1, 1024], pl.FP32],
    out: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
):
    for b in pl.spmd(
        (TOKENS // M_TILE) * (OUT_FEATURES // N_TILE),
        optimizations=[pl.split(pl.SplitMode.UP_DOWN)],
        name_hint="linear_gelu",
    ):
        m0 = (b // N_BLOCKS) * M_TILE
        n0 = (b % N_BLOCKS) * N_TILE
        acc = pl.create_tensor([M_TILE, N_TILE], dtype=pl.FP32)
        for kb in pl.pipeline(IN_FEATURES // K_TILE, stage=STAGES):
            k0 = kb * K_TILE
            x_chunk = x[m0 : m0 + M_TILE, k0 : k0 + K_TILE]
            w_chunk = weight[n0 : n0 + N_TILE, k0 : k0 + K_TILE]
            if k0 == 0:
                acc = pl.matmul(x_chunk, w_chunk, b_trans=True, out_dtype=pl.FP32)
            else:
                acc = pl.matmul_acc(acc, x_chunk, w_chunk, b_trans=True)
        h = pl.col_expand_add(acc, bias[0:1, n0 : n0 + N_TILE])
        # -2z = h * (NEG_2K * 0.044715 h^2 + NEG_2K), NEG_2K = -2 sqrt(2/pi)
        inner = pl.mul(pl.add(pl.mul(pl.mul(h, h), NEG_2K * GELU_C), NEG_2K), h)
        e = pl.exp(inner)
        y = pl.div(h, pl.add(e, 1.0))
        # Into out itself at [m0, n0]: a view of out made outside the kernel would reach it with
        # the dense strides of its own shape (DSL119).
        out = pl.assemble(out, y, [m0, n0])
    return out
