"""Incore functions of the port flash_attention_prefill.

Per (head, query tile of Q_TILE rows, KV block of KV_BLOCK keys) the attention is four tasks:

  qk_matmul               AIC  S = q_tile @ k_blk^T                   [64, 64] FP32   pypto-lib
  online_softmax_prepare  AIV  P = BF16(exp(S*scale - m_blk)), m_blk, l_blk          pypto-lib
  pv_matmul               AIC  o_blk = P @ v_blk                      [64, 128] FP32  pypto-lib
  online_softmax_update   AIV  merge (m_blk, l_blk, o_blk) into (m, l, o)            pypto-lib

The diagonal block (the only one the causal mask cuts) uses causal_softmax_prepare below, which
adds the [64, 64] causal bias tile (0 on and below the diagonal, -1e30 above) before the row max.
online_softmax_finalize (pypto-lib) writes BF16(o / l).

The shared kernels come from pypto-lib/attention_matmul, pypto-lib/online_softmax_prepare and
pypto-lib/online_softmax_update; their folders are put on sys.path here (the compile adapter puts
only pypto_src/ there). The only kernel of this port's own is causal_softmax_prepare.

SRAM of causal_softmax_prepare (a2a3, compiler): Vec 41472 of 188416 B (22.0 %): s, bias,
scratch [64, 64] FP32 (16384 B each, the exp reuses s), P BF16 8192 B, two [64, 1] statistics.
The other kernels' figures are in PORTING.md.
"""
import sys
from pathlib import Path

import pypto.language as pl

_PYPTO_LIB = Path(__file__).resolve().parents[3] / "pypto-lib"
for _block in ("attention_matmul", "online_softmax_prepare", "online_softmax_update"):
    if str(_PYPTO_LIB / _block) not in sys.path:
        sys.path.insert(0, str(_PYPTO_LIB / _block))

from attention_matmul import pv_matmul, qk_matmul  # noqa: E402,F401
from online_softmax_prepare import online_softmax_prepare  # noqa: E402,F401
from online_softmax_update import online_softmax_finalize, online_softmax_update  # noqa: E402,F401

Q_TILE = 64
KV_BLOCK = 64
HEAD_DIM = 128
ATTN_SCALE = 0.08838834764831845


@pl.jit.incore
def causal_softmax_prepare(
    s: pl.Tensor[[64, 64], pl.FP32],
    causal_bias: pl.Tensor[[64, 64], pl.FP32],
    p: pl.Out[pl.Tensor[[64, 64], pl.BF16]],
    m_blk: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
    l_blk: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
):
    s_t = pl.load(s, [0, 0], [Q_TILE, KV_BLOCK])
    bias = pl.load(causal_bias, [0, 0], [Q_TILE, KV_BLOCK])
    masked = pl.add(pl.mul(s_t, ATTN_SCALE), bias)
    scratch = pl.create_tile([Q_TILE, KV_BLOCK], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    row_m = pl.row_max(masked, scratch)
    probs_bf16 = pl.cast(pl.exp(pl.row_expand_sub(masked, row_m)), target_type=pl.BF16)
    row_l = pl.row_sum(pl.cast(probs_bf16, target_type=pl.FP32), scratch)
    pl.store(probs_bf16, [0, 0], p)
    pl.store(pl.reshape(row_m, [1, Q_TILE]), [0, 0], m_blk)
    pl.store(pl.reshape(row_l, [1, Q_TILE]), [0, 0], l_blk)
    return p, m_blk, l_blk
