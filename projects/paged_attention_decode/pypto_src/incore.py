"""Incore functions of the port paged_attention_decode.

Per (sequence, KV block) the attention is four tasks, all from pypto-lib:

  qk_matmul               AIC  S = q_heads @ k_blk^T                   [64, 64] FP32   attention_matmul
  online_softmax_prepare  AIV  columns >= valid_len -> -inf, m_blk, P (BF16), l_blk   online_softmax_prepare
  pv_matmul               AIC  o_blk = P @ v_blk                       [64, 128] FP32  attention_matmul
  online_softmax_update   AIV  merge (m_blk, l_blk, o_blk) into (m, l, o)             online_softmax_update

and online_softmax_finalize writes BF16(o / l) per sequence. Decode has one query token per
sequence, so the query tile is the sequence's 64 heads (MQA: they share the sequence's KV head);
that gives the cube an M of 64 instead of 1. The last block of a sequence is partial: the prepare
kernel loads S with valid_shape [64, valid_len] and fills the rest with -inf before the row max.

This port has no kernel of its own: the shared blocks' folders are put on sys.path here (the
compile adapter puts only pypto_src/ there) and the orchestration calls them.
"""
import sys
from pathlib import Path

_PYPTO_LIB = Path(__file__).resolve().parents[3] / "pypto-lib"
for _block in ("attention_matmul", "online_softmax_prepare", "online_softmax_update"):
    if str(_PYPTO_LIB / _block) not in sys.path:
        sys.path.insert(0, str(_PYPTO_LIB / _block))

from attention_matmul import pv_matmul, qk_matmul  # noqa: E402,F401
from online_softmax_prepare import online_softmax_prepare  # noqa: E402,F401
from online_softmax_update import online_softmax_finalize, online_softmax_update  # noqa: E402,F401

ATTN_SCALE = 0.08838834764831845
