"""Incore function of the port layernorm: pypto-lib's layer_norm block.

layer_norm_rows (pypto-lib/layer_norm/layer_norm.py) runs on one AIV core and normalises
ROW_TILE = 8 full rows of 768 FP32: one TLOAD, mean -> centre -> variance of the centred values ->
1 / sqrt(var + eps) -> * gamma + beta on tiles, one TSTORE. The block's docstring has the
reasoning; PORTING.md has the SRAM figures (estimate and compiler) and the rejected variants.
"""
import sys
from pathlib import Path

_BLOCK = Path(__file__).resolve().parents[3] / "pypto-lib" / "layer_norm"
if str(_BLOCK) not in sys.path:
    sys.path.insert(0, str(_BLOCK))

from layer_norm import layer_norm_rows  # noqa: E402,F401
