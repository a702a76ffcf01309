"""The two cube kernels of one flash-attention KV block: S = Q K^T and O_blk = P V.

    qk_matmul   S [Q_TILE, KV_BLOCK] FP32 = q_tile [Q_TILE, HEAD_DIM] BF16 @ k_blk [KV_BLOCK, HEAD_DIM]^T
    pv_matmul   O [Q_TILE, HEAD_DIM] FP32 = p [Q_TILE, KV_BLOCK] BF16 @ v_blk [KV_BLOCK, HEAD_DIM] BF16

Both run on an AIC core: GM -> Mat (L1) -> Left/Right (L0A/L0B) -> matmul -> Acc (L0C) -> GM.
K is not transposed in memory: k_blk is loaded in its natural [KV_BLOCK, HEAD_DIM] layout and
reinterpreted as its transpose on L1 (tile.transpose_view), so a K block straight out of a
(paged) KV cache is a valid operand. The whole contraction (HEAD_DIM = 128 for QK, KV_BLOCK = 64
for PV) fits L0 at once, so there is no K loop. Used by the task-level forms (PORTING.md ledgers)
of projects/flash_attention_prefill and projects/paged_attention_decode; the vector half of the block is pypto-lib/online_softmax_prepare
and pypto-lib/online_softmax_update.

SRAM (compiler, a2a3): qk_matmul Mat 32768 B (the transpose view aliases the K tile), Left 16384,
Right 16384, Acc 16384 (12.5 %); pv_matmul Mat 24576, Left 8192, Right 16384, Acc 32768 (25 %).
Far from full: the tile is set by the attention block (64 queries x 64 keys), not by SRAM.

The entry `attention_matmul_block` is this block's own test program (QK, then PV with a given P).
"""
import functools

import pypto.language as pl

Q_TILE = 64
KV_BLOCK = 64
HEAD_DIM = 128


@pl.jit.incore
def qk_matmul(
    q_tile: pl.Tensor[[64, 128], pl.BF16],
    k_blk: pl.Tensor[[64, 128], pl.BF16],
    s: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
):
    q_l1 = pl.load(q_tile, [0, 0], [Q_TILE, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    k_l1 = pl.load(k_blk, [0, 0], [KV_BLOCK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    q_l0 = pl.move(q_l1, target_memory=pl.MemorySpace.Left)
    kt_l0 = pl.move(pl.tile.transpose_view(k_l1), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(q_l0, kt_l0), [0, 0], s)
    return s


@pl.jit.incore
def pv_matmul(
    p: pl.Tensor[[64, 64], pl.BF16],
    v_blk: pl.Tensor[[64, 128], pl.BF16],
    o_blk: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    p_l1 = pl.load(p, [0, 0], [Q_TILE, KV_BLOCK], target_memory=pl.MemorySpace.Mat)
    v_l1 = pl.load(v_blk, [0, 0], [KV_BLOCK, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    p_l0 = pl.move(p_l1, target_memory=pl.MemorySpace.Left)
    v_l0 = pl.move(v_l1, target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(p_l0, v_l0), [0, 0], o_blk)
    return o_blk


@pl.jit
def attention_matmul_block(
    q_tile: pl.Tensor[[64, 128], pl.BF16],
    k_blk: pl.Tensor[[64, 128], pl.BF16],
    p: pl.Tensor[[64, 64], pl.BF16],
    v_blk: pl.Tensor[[64, 128], pl.BF16],
    s: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    o_blk: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    s = qk_matmul(q_tile, k_blk, s)
    o_blk = pv_matmul(p, v_blk, o_blk)
    return s, o_blk


# ---------------------------------------------------------------------------------------------
# Golden (plain torch)
# ---------------------------------------------------------------------------------------------

# BF16 operands are exact in FP32, products are exact, and the cube accumulates in FP32: the
# only error is the FP32 summation order over 128 (QK) or 64 (PV) terms, a few FP32 ULP of the
# partial sums (|S| <= ~60 here: 1e-4 absolute covers 128 * 2^-24 * 60 with margin).
RTOL = 1e-5
ATOL = 1e-4
SEED = 20260315

# The correctness contract (docs/contract.md §8, blocks): every case under every seed; "scale"
# multiplies q, k and v (|S| up to ~700 at x4, where an FP32 evaluation summing strictly left to
# right uses a quarter of the allowance). P stays in (0, 1], as the prepare kernel makes it.
CONTRACT = {
    "kind": "matmul",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 4.0}},
    },
}


@functools.lru_cache(maxsize=4)
def _operands(seed=SEED, scale=1.0):
    import torch

    gen = torch.Generator().manual_seed(seed)
    q = (torch.randn(Q_TILE, HEAD_DIM, generator=gen) * scale).to(torch.bfloat16)
    k = (torch.randn(KV_BLOCK, HEAD_DIM, generator=gen) * scale).to(torch.bfloat16)
    # P as the prepare kernel makes it: BF16 values in (0, 1].
    p = torch.rand(Q_TILE, KV_BLOCK, generator=gen).to(torch.bfloat16)
    v = (torch.randn(KV_BLOCK, HEAD_DIM, generator=gen) * scale).to(torch.bfloat16)
    return q, k, p, v


def build_tensor_specs(params=None):
    """The entry's arguments; `params` is a contract case's (seed, scale), None the block's own run."""
    import torch
    from golden import TensorSpec

    params = params or {}
    case = (params.get("seed", SEED), params.get("scale", 1.0))
    return [
        TensorSpec("q_tile", [Q_TILE, HEAD_DIM], torch.bfloat16, init_value=lambda: _operands(*case)[0]),
        TensorSpec("k_blk", [KV_BLOCK, HEAD_DIM], torch.bfloat16, init_value=lambda: _operands(*case)[1]),
        TensorSpec("p", [Q_TILE, KV_BLOCK], torch.bfloat16, init_value=lambda: _operands(*case)[2]),
        TensorSpec("v_blk", [KV_BLOCK, HEAD_DIM], torch.bfloat16, init_value=lambda: _operands(*case)[3]),
        TensorSpec("s", [Q_TILE, KV_BLOCK], torch.float32, is_output=True),
        TensorSpec("o_blk", [Q_TILE, HEAD_DIM], torch.float32, is_output=True),
    ]


def golden_attention_matmul_block(tensors):
    tensors["s"][:] = tensors["q_tile"].float() @ tensors["k_blk"].float().T
    tensors["o_blk"][:] = tensors["p"].float() @ tensors["v_blk"].float()


if __name__ == "__main__":
    import argparse

    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", type=str, default="a2a3sim", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    args = parser.parse_args()
    result = run_jit(
        fn=attention_matmul_block,
        specs=build_tensor_specs(),
        golden_fn=golden_attention_matmul_block,
        runtime_cfg=dict(platform=args.platform, device_id=args.device),
        rtol=RTOL,
        atol=ATOL,
    )
    if not result.passed:
        if result.error:
            print(result.error)
        raise SystemExit(1)
