"""LayerNorm over full rows, FP32 in and out: one TLOAD and one TSTORE per row block.

For a block of ROW_TILE = 8 rows of width HIDDEN = 768 (BERT-base):

    mean     = row_sum(x * 1/H)                 [R, 1]
    centered = x - mean
    var      = row_sum(centered^2 * 1/H)        biased variance, from the centred values
    y        = centered * 1 / sqrt(var + EPS) * gamma + beta

The whole row is on chip, so the variance comes from the centred values (two-pass: stable when a
row's mean is large against its spread) without reading x from GM twice. x is pre-scaled by 1/H
before the row sums, so no scalar op runs on the [R, 1] column tiles; 1 / sqrt(var + eps) runs on
the [1, R] row-major view (32 B, the smallest legal Vec row at R = 8).

One @pl.jit.incore kernel on an AIV core, used by projects/layernorm; the entry
`layer_norm_block` (ROWS = 32, 4 tasks) is this block's own test program and shows the calling
convention: the caller slices x and y per row block.
"""
import functools

import pypto.language as pl

ROWS = 32
HIDDEN = 768
ROW_TILE = 8
EPS = 1e-5


@pl.jit.incore
def layer_norm_rows(
    x: pl.Tensor[[8, 768], pl.FP32],
    gamma: pl.Tensor[[1, 768], pl.FP32],
    beta: pl.Tensor[[1, 768], pl.FP32],
    y: pl.Out[pl.Tensor[[8, 768], pl.FP32]],
):
    x_tile = pl.load(x, [0, 0], [ROW_TILE, HIDDEN])
    gamma_tile = pl.load(gamma, [0, 0], [1, HIDDEN])
    beta_tile = pl.load(beta, [0, 0], [1, HIDDEN])
    scratch = pl.create_tile([ROW_TILE, HIDDEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)

    mean: pl.Tile[[8, 1], pl.FP32] = pl.row_sum(pl.mul(x_tile, 1.0 / HIDDEN), scratch)
    centered = pl.row_expand_sub(x_tile, mean)
    sq = pl.mul(pl.mul(centered, centered), 1.0 / HIDDEN)
    var: pl.Tile[[8, 1], pl.FP32] = pl.row_sum(sq, scratch)

    var_row = pl.reshape(var, [1, ROW_TILE])
    ones_row = pl.tile.full([1, ROW_TILE], dtype=pl.FP32, value=1.0)
    inv_std_row = pl.div(ones_row, pl.sqrt(pl.add(var_row, EPS)))
    inv_std: pl.Tile[[8, 1], pl.FP32] = pl.reshape(inv_std_row, [ROW_TILE, 1])

    normed = pl.row_expand_mul(centered, inv_std)
    scaled = pl.col_expand_mul(normed, gamma_tile)
    shifted = pl.col_expand_add(scaled, beta_tile)
    pl.store(shifted, [0, 0], y)
    return y


@pl.jit
def layer_norm_block(
    x: pl.Tensor[[32, 768], pl.FP32],
    gamma: pl.Tensor[[1, 768], pl.FP32],
    beta: pl.Tensor[[1, 768], pl.FP32],
    y: pl.Out[pl.Tensor[[32, 768], pl.FP32]],
):
    for rb in pl.parallel(ROWS // ROW_TILE):
        r0 = rb * ROW_TILE
        x_rows = pl.slice(x, [ROW_TILE, HIDDEN], [r0, 0])
        y_rows = pl.slice(y, [ROW_TILE, HIDDEN], [r0, 0])
        layer_norm_rows(x_rows, gamma, beta, y_rows)
    return y


# ---------------------------------------------------------------------------------------------
# Golden (plain torch)
# ---------------------------------------------------------------------------------------------

# FP32 out, two reductions of length 768 per row; the reference is evaluated in FP64 and rounded
# once. The kernel's formula evaluated in FP32 with strictly sequential row sums (the worst
# summation order) stays under a quarter of ATOL + RTOL * |y| on these inputs (see the test);
# ATOL 1e-5 covers outputs near zero, where the centring's absolute error is what remains.
RTOL = 1e-4
ATOL = 1e-5
SEED = 20260306

# The correctness contract (docs/contract.md §8, blocks): every case under every seed; "scale"
# multiplies x (offsets and outlier included), so the tolerance above must hold from 1e-3 to 1e3.
CONTRACT = {
    "kind": "norm",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1000.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
    },
}


@functools.lru_cache(maxsize=4)
def _inputs(seed=SEED, scale=1.0):
    import torch

    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(ROWS, HIDDEN, generator=gen)
    # Row scales 0.1 .. 10 and mean offsets -8 .. 8: the offset breaks a one-pass variance.
    x = x * torch.pow(10.0, torch.rand(ROWS, 1, generator=gen) * 2.0 - 1.0) + (torch.rand(ROWS, 1, generator=gen) * 16.0 - 8.0)
    x[:, 3] *= 20.0          # an outlier channel
    x[9, :] = 0.0            # variance 0: the output is beta
    gamma = torch.rand(1, HIDDEN, generator=gen) + 0.5
    beta = torch.randn(1, HIDDEN, generator=gen) * 0.1
    return x * scale, gamma, beta


def layer_norm_reference(x, gamma, beta, eps=EPS):
    """y in FP32, computed in FP64 (two-pass mean / biased variance)."""
    xd = x.double()
    centered = xd - xd.mean(dim=-1, keepdim=True)
    var = centered.pow(2).mean(dim=-1, keepdim=True)
    return (centered / (var + eps).sqrt() * gamma.double() + beta.double()).float()


def build_tensor_specs(params=None):
    """The entry's arguments; `params` is a contract case's (seed, scale), None the block's own run."""
    import torch
    from golden import TensorSpec

    params = params or {}
    case = (params.get("seed", SEED), params.get("scale", 1.0))
    return [
        TensorSpec("x", [ROWS, HIDDEN], torch.float32, init_value=lambda: _inputs(*case)[0]),
        TensorSpec("gamma", [1, HIDDEN], torch.float32, init_value=lambda: _inputs(*case)[1]),
        TensorSpec("beta", [1, HIDDEN], torch.float32, init_value=lambda: _inputs(*case)[2]),
        TensorSpec("y", [ROWS, HIDDEN], torch.float32, is_output=True),
    ]


def golden_layer_norm_block(tensors):
    tensors["y"][:] = layer_norm_reference(tensors["x"], tensors["gamma"], tensors["beta"])


if __name__ == "__main__":
    import argparse

    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", type=str, default="a2a3sim", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    args = parser.parse_args()
    result = run_jit(
        fn=layer_norm_block,
        specs=build_tensor_specs(),
        golden_fn=golden_layer_norm_block,
        runtime_cfg=dict(platform=args.platform, device_id=args.device),
        rtol=RTOL,
        atol=ATOL,
    )
    if not result.passed:
        if result.error:
            print(result.error)
        raise SystemExit(1)
