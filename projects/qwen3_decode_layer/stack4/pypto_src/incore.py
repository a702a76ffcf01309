"""Incore stages of the 4-layer stack: the single layer's stages, from ../../pypto_src/incore.py
(loaded under its own module name: this file is `incore` too). The stack's entry calls the nine
of them once per layer."""
import importlib.util
import sys
from pathlib import Path

_LAYER_INCORE = Path(__file__).resolve().parents[2] / "pypto_src" / "incore.py"
if "qwen3_layer_incore" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("qwen3_layer_incore", _LAYER_INCORE)
    _mod = importlib.util.module_from_spec(_spec)
    sys.modules["qwen3_layer_incore"] = _mod
    _spec.loader.exec_module(_mod)

from qwen3_layer_incore import (  # noqa: E402,F401
    BATCH,
    BLOCK_SIZE,
    HEAD_DIM,
    HIDDEN,
    INTER,
    KV_DIM,
    MAX_BLOCKS,
    NUM_HEADS,
    NUM_KV_HEADS,
    SLOTS,
    attention_seq,
    down_residual,
    gate_up_silu,
    input_norm,
    kv_cache_write,
    kv_proj_norm_rope,
    o_proj_residual,
    post_norm,
    q_proj_norm_rope,
)
