"""Online-softmax block prepare: the vector half of one flash-attention KV block.

For a block of raw scores S [Q_TILE, KV_BLOCK] (FP32, from the QK matmul) whose first
`valid_len` columns are real keys:

    S'   = S * scale, columns >= valid_len set to -inf   (fillpad with PadValue.min)
    m    = rowmax(S')                                      [1, Q_TILE] FP32, row layout
    P    = exp(S' - m)                                     cast to BF16: the PV matmul operand
    l    = rowsum(FP32(P))                                 summed from the BF16-rounded P, so that
                                                           l normalises exactly what PV multiplies

The padding is applied before the max (a mask after exp would leave exp(S_pad - m) in l). One
@pl.jit.incore kernel on an AIV core; used by the task-level forms (PORTING.md ledgers) of
projects/paged_attention_decode (the last block of a sequence is partial) and
projects/flash_attention_prefill (off-diagonal blocks, valid_len = 64).
Its outputs feed pypto-lib/online_softmax_update.

Tile: [64, 64] FP32 scores (16384 B); the exp, the reduction scratch and the BF16 copy of P are
the other live tiles. SRAM (compiler): Vec 41472 B, 22.0 % of a2a3 (16.9 % of a5); at [64, 128]
(KV blocks of 128) it is 82432 B, 43.8 %. The entry `online_softmax_prepare_block` is this block's own test program.
"""
import functools

import pypto.language as pl

Q_TILE = 64
KV_BLOCK = 64
TEST_VALID_LEN = 37
TEST_SCALE = 0.08838834764831845


@pl.jit.incore
def online_softmax_prepare(
    s: pl.Tensor[[64, 64], pl.FP32],
    scale: pl.Scalar[pl.FP32],
    valid_len: pl.Scalar[pl.INDEX],
    p: pl.Out[pl.Tensor[[64, 64], pl.BF16]],
    m_blk: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
    l_blk: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
):
    s_raw = pl.load(s, [0, 0], [Q_TILE, KV_BLOCK], valid_shape=[Q_TILE, valid_len])
    s_pad = pl.tile.fillpad(s_raw, pad_value=pl.PadValue.min)
    scaled = pl.mul(s_pad, scale)
    scratch = pl.create_tile([Q_TILE, KV_BLOCK], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    row_m = pl.row_max(scaled, scratch)
    probs = pl.exp(pl.row_expand_sub(scaled, row_m))
    probs_bf16 = pl.cast(probs, target_type=pl.BF16)
    row_l = pl.row_sum(pl.cast(probs_bf16, target_type=pl.FP32), scratch)
    pl.store(probs_bf16, [0, 0], p)
    pl.store(pl.reshape(row_m, [1, Q_TILE]), [0, 0], m_blk)
    pl.store(pl.reshape(row_l, [1, Q_TILE]), [0, 0], l_blk)
    return p, m_blk, l_blk


@pl.jit
def online_softmax_prepare_block(
    s: pl.Tensor[[64, 64], pl.FP32],
    p: pl.Out[pl.Tensor[[64, 64], pl.BF16]],
    m_blk: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
    l_blk: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
):
    p, m_blk, l_blk = online_softmax_prepare(s, TEST_SCALE, TEST_VALID_LEN, p, m_blk, l_blk)
    return p, m_blk, l_blk


# ---------------------------------------------------------------------------------------------
# Golden (plain torch)
# ---------------------------------------------------------------------------------------------

# P is BF16 (two BF16 ULP relative, values in (0, 1]); m is an exact max of scaled FP32 scores
# (one FP32 rounding of the product); l sums 64 BF16-exact values in FP32 (~1e-6 relative).
# One tolerance for all three outputs, the loosest (P's).
RTOL = 1.6e-2
ATOL = 1e-3
SEED = 20260312

# The correctness contract (docs/contract.md §8, blocks): every case under every seed. Every case
# masks the columns >= TEST_VALID_LEN; "scale" multiplies the scores (x30: scaled scores ~ N(0, 30),
# P one-hot in most rows); "neg_inf_every" puts -inf in every n-th valid score (a mask applied
# upstream), never a whole row.
CONTRACT = {
    "kind": "softmax",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 30.0}},
        "masked_scores": {"category": "neg_inf", "params": {"neg_inf_every": 5}},
    },
}


@functools.lru_cache(maxsize=4)
def _scores(seed=SEED, scale=1.0, neg_inf_every=0):
    import torch

    gen = torch.Generator().manual_seed(seed)
    # Raw QK^T scores of BF16 q, k ~ N(0, 1) with head_dim 128: N(0, sqrt(128)) before scaling.
    s = torch.randn(Q_TILE, KV_BLOCK, generator=gen) * (11.3 * scale)
    if neg_inf_every:
        # -inf at every n-th (row + column), row by row shifted: at most one in n of a row's valid scores.
        index = torch.arange(Q_TILE)[:, None] + torch.arange(KV_BLOCK)[None, :]
        s[index % neg_inf_every == 0] = float("-inf")
    # A very large score in a padded column: must not reach the max or the sum.
    s[:, KV_BLOCK - 1] = 1.0e4
    return s


def prepare_reference(s, scale, valid_len):
    """(P as BF16, m [rows], l [rows]) of one block; columns >= valid_len are masked."""
    import torch

    scaled = s.float() * scale
    scaled[:, valid_len:] = float("-inf")
    m = scaled.max(dim=-1).values
    p_bf16 = torch.exp(scaled - m[:, None]).to(torch.bfloat16)
    return p_bf16, m, p_bf16.float().sum(dim=-1)


def build_tensor_specs(params=None):
    """The entry's arguments; `params` is a contract case's (seed, scale, neg_inf_every), None the block's own run."""
    import torch
    from golden import TensorSpec

    params = params or {}
    case = (params.get("seed", SEED), params.get("scale", 1.0), params.get("neg_inf_every", 0))
    return [
        TensorSpec("s", [Q_TILE, KV_BLOCK], torch.float32, init_value=lambda: _scores(*case)),
        TensorSpec("p", [Q_TILE, KV_BLOCK], torch.bfloat16, is_output=True),
        TensorSpec("m_blk", [1, Q_TILE], torch.float32, is_output=True),
        TensorSpec("l_blk", [1, Q_TILE], torch.float32, is_output=True),
    ]


def golden_online_softmax_prepare_block(tensors):
    p, m, l = prepare_reference(tensors["s"], TEST_SCALE, TEST_VALID_LEN)
    tensors["p"][:] = p
    tensors["m_blk"][:] = m[None, :]
    tensors["l_blk"][:] = l[None, :]


if __name__ == "__main__":
    import argparse

    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", type=str, default="a2a3sim", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    args = parser.parse_args()
    result = run_jit(
        fn=online_softmax_prepare_block,
        specs=build_tensor_specs(),
        golden_fn=golden_online_softmax_prepare_block,
        runtime_cfg=dict(platform=args.platform, device_id=args.device),
        rtol=RTOL,
        atol=ATOL,
    )
    if not result.passed:
        if result.error:
            print(result.error)
        raise SystemExit(1)
