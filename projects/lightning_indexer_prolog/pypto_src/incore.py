"""Incore functions of the port lightning_indexer_prolog.

Per tile of TOKEN_TILE = 64 tokens and index head h (and once per tile for the key):

  q_proj / k_proj   AIC  r = x_tile @ w[:, head]     K loop of K_TILE = 128, FP32 in L0C;
                         the TSTORE from L0C writes BF16 (the fixpipe converts FP32 -> BF16 on
                         the way out), so the cast needs no vector task and no FP32 copy in GM
  hadamard_mix      AIC  h = r_bf16 @ H              [64, 128] @ [128, 128] -> FP32
  int8_quant_rows   AIV  q = rint(h * 127 / amax), scale = amax / 127      (pypto-lib/int8_quant)

The K loop is one pl.pipeline of stage 2 (the next chunk's TLOAD overlaps this chunk's matmul),
from 0, with `if kb == 0: pl.matmul else pl.matmul_acc` and the Acc tile declared before the
loop (the loop-carried accumulator needs a definition outside it).

SRAM (a2a3, compiler): q_proj / k_proj Mat 98304 B (the stage-2 pipeline double-buffers the
[64, 128] and [128, 128] BF16 chunks), Left 32768, Right 65536 (100 %: two [128, 128] BF16
buffers), Acc 32768; hadamard_mix Mat 49152, Left 16384, Right 32768, Acc 32768.
"""
import sys
from pathlib import Path

import pypto.language as pl

_PYPTO_LIB = Path(__file__).resolve().parents[3] / "pypto-lib"
if str(_PYPTO_LIB / "int8_quant") not in sys.path:
    sys.path.insert(0, str(_PYPTO_LIB / "int8_quant"))

from int8_quant import int8_quant_rows  # noqa: E402,F401

TOKEN_TILE = 64
INDEX_DIM = 128
K_TILE = 128
Q_LORA = 512
HIDDEN = 1024


@pl.jit.incore
def q_proj(
    qr_tile: pl.Tensor[[64, 512], pl.BF16],
    w_head: pl.Tensor[[512, 128], pl.BF16],
    r: pl.Out[pl.Tensor[[64, 128], pl.BF16]],
):
    acc = pl.create_tile([TOKEN_TILE, INDEX_DIM], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
    for kb in pl.pipeline(Q_LORA // K_TILE, stage=2):
        a_l1 = pl.load(qr_tile, [0, kb * K_TILE], [TOKEN_TILE, K_TILE], target_memory=pl.MemorySpace.Mat)
        w_l1 = pl.load(w_head, [kb * K_TILE, 0], [K_TILE, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(w_l1, target_memory=pl.MemorySpace.Right)
        if kb == 0:
            acc = pl.matmul(a_l0, w_l0)
        else:
            acc = pl.matmul_acc(acc, a_l0, w_l0)
    pl.store(acc, [0, 0], r)
    return r


@pl.jit.incore
def k_proj(
    x_tile: pl.Tensor[[64, 1024], pl.BF16],
    wk: pl.Tensor[[1024, 128], pl.BF16],
    r: pl.Out[pl.Tensor[[64, 128], pl.BF16]],
):
    acc = pl.create_tile([TOKEN_TILE, INDEX_DIM], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
    for kb in pl.pipeline(HIDDEN // K_TILE, stage=2):
        a_l1 = pl.load(x_tile, [0, kb * K_TILE], [TOKEN_TILE, K_TILE], target_memory=pl.MemorySpace.Mat)
        w_l1 = pl.load(wk, [kb * K_TILE, 0], [K_TILE, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(w_l1, target_memory=pl.MemorySpace.Right)
        if kb == 0:
            acc = pl.matmul(a_l0, w_l0)
        else:
            acc = pl.matmul_acc(acc, a_l0, w_l0)
    pl.store(acc, [0, 0], r)
    return r


@pl.jit.incore
def hadamard_mix(
    r: pl.Tensor[[64, 128], pl.BF16],
    hadamard: pl.Tensor[[128, 128], pl.BF16],
    h: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    r_l1 = pl.load(r, [0, 0], [TOKEN_TILE, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
    had_l1 = pl.load(hadamard, [0, 0], [INDEX_DIM, INDEX_DIM], target_memory=pl.MemorySpace.Mat)
    r_l0 = pl.move(r_l1, target_memory=pl.MemorySpace.Left)
    had_l0 = pl.move(had_l1, target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(r_l0, had_l0), [0, 0], h)
    return h
